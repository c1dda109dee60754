import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Box, Dialog, DialogContent, DialogTitle, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import type { PublicDoctorProfile } from '@telemed/contracts';
import { call } from '../../lib/client';
import { isAdmin, isDoctor, useSession } from '../../lib/session';
import { whenPhrase } from '../../lib/time';
import { SlotPicker } from '../../components/SlotPicker';
import { EmptyState } from '../../components/EmptyState';
import { confirmPath } from '../patient/confirmPath';
import type { Slot } from '../patient/types';
import { SignInButtons } from '../auth/LoginPage';
import { formatRupees } from '../../lib/money';

/** After picking a slot, a visitor who is not signed in signs in here; they come back to that slot's confirm page. */
function SignInToBook({ doctor, slot, onClose }: { doctor: PublicDoctorProfile; slot: Slot | null; onClose: () => void }) {
  return (
    <Dialog open={Boolean(slot)} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="sign-in-to-book-title">
      <DialogTitle id="sign-in-to-book-title" sx={{ pr: 6 }}>
        Sign in to book
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {slot && (
          <Stack spacing={2}>
            <Box sx={{ p: 1.5, borderRadius: 2, bgcolor: 'background.default' }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{doctor.name}</Typography>
              <Typography color="text.secondary">
                {whenPhrase(slot.start_at)} · {formatRupees(doctor.consultation_fee)}
              </Typography>
            </Box>
            <Typography variant="body2" color="text.secondary">
              After signing in you will confirm this time and tell the doctor the reason for your visit. The doctor is added to your list.
            </Typography>
            <SignInButtons intent={{ path: confirmPath(doctor, slot), subscribeTo: doctor.doctor_id }} />
          </Stack>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * 'Book Consultation': the doctor's open slots by day. A signed-in patient picks a time and goes straight to the
 * confirm page (the doctor is added to their list); anyone else signs in first and comes back to that time.
 */
export function BookingPanel({ doctor }: { doctor: PublicDoctorProfile }) {
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
          Book a video consultation
        </Typography>
        <Typography color="text.secondary">
          {formatRupees(doctor.consultation_fee)} · {doctor.appointment_duration_minutes || 30} minutes ·{' '}
          {session ? 'pick a time, then confirm it on the next page' : 'pick a time, then sign in with Google to confirm it'}
        </Typography>
      </Box>
      {cannotBook && <Alert severity="info">Booking is for patient accounts. You are signed in as {isDoctor(session?.user) ? 'a doctor' : 'an admin'}.</Alert>}
      {!doctor.accepting_bookings ? (
        <EmptyState icon={EventBusyOutlined} title="Not accepting bookings" text={`${doctor.name} is not accepting bookings at the moment. Please check again later.`} />
      ) : doctor.slots.length === 0 ? (
        <EmptyState icon={EventBusyOutlined} title="No open slots" text={`${doctor.name} has no open slots in the next ${doctor.days} days. Please check again later.`} />
      ) : (
        <SlotPicker slots={doctor.slots} doctorName={doctor.name} onPick={(slot) => void pick(slot)} disabled={cannotBook || busy} />
      )}
      <SignInToBook doctor={doctor} slot={signingInFor} onClose={() => setSigningInFor(null)} />
    </Stack>
  );
}
