import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useT } from '../../i18n/useT';
import { WaitlistPlaceCard } from './WaitlistPlaceCard';
import { useMyWaitlist } from './waitlist';

/** The patient's waitlist places, offers first (a held time lasts minutes); nothing at all while there are none. */
export function WaitlistSection() {
  const t = useT();
  const places = useMyWaitlist();
  const shown = [...(places.data ?? [])].sort((a, b) => Number(b.offer !== null) - Number(a.offer !== null));
  if (shown.length === 0) return null;
  return (
    <Stack component="section" spacing={2} aria-labelledby="waitlist-heading" id="waitlist">
      <Typography id="waitlist-heading" variant="h6" component="h2">
        {t('waitlist.yourPlaces')}
      </Typography>
      {shown.map((place) => (
        <Card key={place.doctor_id} variant="outlined">
          <CardContent sx={{ '&:last-child': { pb: 2 } }}>
            <WaitlistPlaceCard place={place} named />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
