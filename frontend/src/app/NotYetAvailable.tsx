import { Card, CardContent, Typography } from '@mui/material';
import { useT } from '../i18n/useT';

/** Screens of the seeds that are not built yet say so plainly (tracked in the web app issue). */
export function NotYetAvailable({ title }: { title: string }) {
  const t = useT();
  return (
    <Card>
      <CardContent>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary">{t('shell.notYetAvailable')}</Typography>
      </CardContent>
    </Card>
  );
}
