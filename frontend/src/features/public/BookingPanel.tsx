import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, Dialog, DialogContent, DialogTitle, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import type { PublicDoctorProfile } from '@telemed/contracts';
import { call } from '../../lib/client';
import { isAdmin, isDoctor, useSession } from '../../lib/session';
import { SlotPicker } from '../../components/SlotPicker';
import { EmptyState } from '../../components/EmptyState';
import { confirmPath } from '../patient/confirmPath';
import type { Slot } from '../patient/types';
import { SignInButtons } from '../auth/LoginPage';
import { JoinWaitlistDialog } from '../waitlist/JoinWaitlistDialog';
import { WaitlistPlaceCard } from '../waitlist/WaitlistPlaceCard';
import { useMyWaitlist } from '../waitlist/waitlist';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

/** After picking a slot, a visitor who is not signed in signs in here; they come back to that slot's confirm page. */
function SignInToBook({ doctor, slot, onClose }: { doctor: PublicDoctorProfile; slot: Slot | null; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  return (
    <Dialog open={Boolean(slot)} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="sign-in-to-book-title">
      <DialogTitle id="sign-in-to-book-title" sx={{ pr: 6 }}>
        {t('public.signInToBook')}
        <IconButton aria-label={t('public.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {slot && (
          <Stack spacing={2}>
            <Box sx={{ p: 1.5, borderRadius: 2, bgcolor: 'background.default' }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{doctor.name}</Typography>
              <Typography color="text.secondary">
                {f.whenPhrase(slot.start_at)} · {f.rupees(doctor.consultation_fee)}
              </Typography>
            </Box>
            <Typography variant="body2" color="text.secondary">
              {t('public.afterSignIn')}
            </Typography>
            <SignInButtons intent={{ path: confirmPath(doctor, slot), subscribeTo: doctor.doctor_id }} />
          </Stack>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A signed-in patient's way to wait for this doctor (issue 35): their place if they hold one, else joining (which also
 * adds the doctor to their list, as booking does).
 */
function WaitlistOffer({ doctor }: { doctor: PublicDoctorProfile }) {
  const t = useT();
  const places = useMyWaitlist();
  const [joining, setJoining] = useState(false);
  const place = places.data?.find((p) => p.doctor_id === doctor.doctor_id);
  if (places.isLoading) return null;
  if (place) return <WaitlistPlaceCard place={place} />;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<NotificationsActiveOutlined />}
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => {
          void call('subscribeToDoctor', { body: { doctor_id: doctor.doctor_id } }).catch(() => undefined);
          setJoining(true);
        }}
      >
        {t('waitlist.joinButton')}
      </Button>
      <JoinWaitlistDialog open={joining} doctor={{ doctor_id: doctor.doctor_id, name: doctor.name }} onClose={() => setJoining(false)} />
    </>
  );
}

/**
 * 'Book Consultation': the doctor's open slots by day. A signed-in patient picks a time and goes straight to the
 * confirm page (the doctor is added to their list); anyone else signs in first and comes back to that time.
 */
export function BookingPanel({ doctor }: { doctor: PublicDoctorProfile }) {
  const t = useT();
  const f = useFormat();
  const session = useSession();
  const navigate = useNavigate();
  const [signingInFor, setSigningInFor] = useState<Slot | null>(null);
  const [busy, setBusy] = useState(false);
  const cannotBook = Boolean(session) && (isDoctor(session?.user) || isAdmin(session?.user));

  async function pick(slot: Slot) {
    if (!session) {
      setSigningInFor(slot);
      return;
    }
    setBusy(true);
    // Adding a doctor twice changes nothing; if it fails the confirm page still works for this slot.
    await call('subscribeToDoctor', { body: { doctor_id: doctor.doctor_id } }).catch(() => undefined);
    navigate(confirmPath(doctor, slot));
  }

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h6" component="h2">
          {t('public.bookVideoConsultation')}
        </Typography>
        <Typography color="text.secondary">
          {t(session ? 'public.bookingHowSignedIn' : 'public.bookingHowVisitor', { fee: f.rupees(doctor.consultation_fee), minutes: doctor.appointment_duration_minutes || 30 })}
        </Typography>
      </Box>
      {cannotBook && <Alert severity="info">{t('public.bookingNotForRole', { role: isDoctor(session?.user) ? 'doctor' : 'admin' })}</Alert>}
      {!doctor.accepting_bookings ? (
        <EmptyState icon={EventBusyOutlined} title={t('public.notAcceptingTitle')} text={t('public.notAcceptingText', { name: doctor.name })} />
      ) : doctor.slots.length === 0 ? (
        <>
          <EmptyState icon={EventBusyOutlined} title={t('public.noOpenSlotsTitle')} text={t('public.noOpenSlotsText', { name: doctor.name, days: doctor.days })} />
          {session && !cannotBook && <WaitlistOffer doctor={doctor} />}
        </>
      ) : (
        <SlotPicker slots={doctor.slots} doctorName={doctor.name} onPick={(slot) => void pick(slot)} disabled={cannotBook || busy} />
      )}
      <SignInToBook doctor={doctor} slot={signingInFor} onClose={() => setSigningInFor(null)} />
    </Stack>
  );
}
