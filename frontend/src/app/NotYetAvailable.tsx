import { Card, CardContent, Typography } from '@mui/material';

/** Screens of the seeds that are not built yet say so plainly (tracked in the web app issue). */
export function NotYetAvailable({ title }: { title: string }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary">This screen is not available yet.</Typography>
      </CardContent>
    </Card>
  );
}
