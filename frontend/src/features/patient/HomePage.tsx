import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  Grid,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { CREDIT_PACKS, STARTING_CREDITS } from '@telemed/contracts/constants';
import { api } from '../../lib/api';
import { browserZone, whenPhrase } from '../../lib/time';
import { matchesSearch, upcoming, type Doctor, type DoctorWithSlots, type Slot } from './types';
import { PendingInvitations } from '../institution/Invitations';

export const HOME_SLOTS_SHOWN = 4;
export const ADD_MODAL_SLOTS_SHOWN = 3;

function confirmPath(doctor: Doctor, slot: Slot) {
  const params = new URLSearchParams({ slot_id: String(slot.slot_id), doctorName: doctor.name, doctor_id: doctor.doctor_id, startTime: slot.start_at });
  return `/confirm-appointment?${params}`;
}

function SlotChips({ doctor, slots, shown, onMore }: { doctor: Doctor; slots: Slot[]; shown: number; onMore?: () => void }) {
  const navigate = useNavigate();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
      {slots.slice(0, shown).map((slot) => (
        <Chip key={slot.slot_id} label={whenPhrase(slot.start_at)} color="primary" variant="outlined" onClick={() => navigate(confirmPath(doctor, slot))} />
      ))}
      {slots.length > shown && <Chip label={`+${slots.length - shown} more`} onClick={onMore} />}
    </Stack>
  );
}

function CreditsCard() {
  const [credits, setCredits] = useState(STARTING_CREDITS);
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardContent>
        <Typography variant="overline">Credits</Typography>
        <Typography variant="h4" data-testid="credits">
          {credits}
        </Typography>
        <Button sx={{ mt: 1 }} variant="outlined" onClick={() => setOpen(true)}>
          Add Credits
        </Button>
      </CardContent>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Purchase Credits</DialogTitle>
        <DialogContent>
          <Stack spacing={1}>
            {CREDIT_PACKS.map((pack) => (
              <Button
                key={pack.credits}
                variant="outlined"
                onClick={() => {
                  setCredits((c) => c + pack.credits);
                  setOpen(false);
                }}
              >
                {pack.credits} credits — ₹{pack.price_rupees.toLocaleString('en-IN')}
              </Button>
            ))}
          </Stack>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function AddDoctorModal({ open, onClose, mine }: { open: boolean; onClose: () => void; mine: Set<string> }) {
  const [search, setSearch] = useState('');
  const queryClient = useQueryClient();
  // The modal reloads its doctor list each time it opens.
  const doctors = useQuery({
    queryKey: ['doctors', 'all', open],
    enabled: open,
    queryFn: async () => {
      const list = await api<Doctor[]>('/doctors/?skip=0&limit=100').catch(() => [] as Doctor[]);
      return Promise.all(
        list.map(async (d) => ({
          ...d,
          availableSlots: await api<{ slots: Slot[] }>(`/doctors/${d.doctor_id}/available-slots?timezone_str=${encodeURIComponent(browserZone())}`)
            .then((r) => upcoming(r.slots))
            .catch(() => [] as Slot[]),
        })),
      );
    },
  });
  const subscribe = useMutation({
    mutationFn: (doctorId: string) => api('/users/subscribe', { method: 'POST', body: { doctor_id: doctorId } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['doctors', 'me'] });
      onClose();
    },
  });
  const visible = (doctors.data ?? []).filter((d) => matchesSearch(d, search));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Add a Doctor</DialogTitle>
      <DialogContent>
        <TextField fullWidth label="Search by name, specialty or qualification" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ mt: 1, mb: 2 }} />
        {doctors.isLoading && <CircularProgress />}
        {!doctors.isLoading && visible.length === 0 && (
          <Typography color="text.secondary">{search ? 'No doctors found matching your search.' : 'No doctors available at the moment.'}</Typography>
        )}
        <List>
          {visible.map((doctor) => (
            <ListItem key={doctor.doctor_id} divider sx={{ display: 'block' }}>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <ListItemText primary={doctor.name} secondary={`${doctor.specialty} · ${doctor.qualification} · ₹${doctor.consultation_fee}`} />
                <Button
                  variant="contained"
                  size="small"
                  disabled={doctor.availableSlots.length === 0 || mine.has(doctor.doctor_id) || subscribe.isPending}
                  onClick={() => doctor.availableSlots.length > 0 && subscribe.mutate(doctor.doctor_id)}
                >
                  {mine.has(doctor.doctor_id) ? 'Added' : 'Add Doctor'}
                </Button>
              </Stack>
              {doctor.availableSlots.length > 0 ? (
                <SlotChips doctor={doctor} slots={doctor.availableSlots} shown={ADD_MODAL_SLOTS_SHOWN} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {doctor.phone_number ? `No future appointments available. Please contact doctor at ${doctor.phone_number}` : 'N/A'}
                </Typography>
              )}
            </ListItem>
          ))}
        </List>
      </DialogContent>
    </Dialog>
  );
}

/** Patient home: credits, the patient's doctors with their next slots, and records tiles. */
export function HomePage() {
  const [adding, setAdding] = useState(false);
  const [allSlotsOf, setAllSlotsOf] = useState<DoctorWithSlots | null>(null);
  const mine = useQuery({
    queryKey: ['doctors', 'me'],
    queryFn: async () => {
      const result = await api<DoctorWithSlots[] | DoctorWithSlots>(`/doctors/me?timezone_str=${encodeURIComponent(browserZone())}`).catch(() => []);
      return (Array.isArray(result) ? result : [result]).map((d) => ({ ...d, availableSlots: upcoming(d.availableSlots) }));
    },
  });
  const doctors = mine.data ?? [];
  return (
    <Stack spacing={3}>
      <PendingInvitations />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <CreditsCard />
        </Grid>
        <Grid size={{ xs: 6, md: 4 }}>
          <Card>
            <CardContent>
              <Typography variant="overline">Medical Reports</Typography>
              <Typography color="text.secondary">No reports yet. You can upload reports after a consultation.</Typography>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 6, md: 4 }}>
          <Card>
            <CardContent>
              <Typography variant="overline">Prescriptions</Typography>
              <Typography color="text.secondary">No prescriptions yet.</Typography>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
      <Box>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="h5" component="h1">
            Your Doctors
          </Typography>
          <Button variant="contained" onClick={() => setAdding(true)}>
            Add Doctor
          </Button>
        </Stack>
        {mine.isLoading && <CircularProgress />}
        {!mine.isLoading && doctors.length === 0 && (
          <Alert severity="info">You haven&apos;t added any doctors yet. Click &quot;Add Doctor&quot; to get started.</Alert>
        )}
        <Stack spacing={2}>
          {doctors.map((doctor) => (
            <Card key={doctor.doctor_id} data-testid="my-doctor">
              <CardContent>
                <Typography variant="h6">{doctor.name}</Typography>
                <Typography color="text.secondary" sx={{ mb: 1 }}>
                  {doctor.specialty} · {doctor.qualification}
                  {doctor.registration_number ? ` · Reg. ${doctor.registration_number}` : ''}
                </Typography>
                {doctor.availableSlots.length > 0 ? (
                  <SlotChips doctor={doctor} slots={doctor.availableSlots} shown={HOME_SLOTS_SHOWN} onMore={() => setAllSlotsOf(doctor)} />
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    No upcoming appointments available
                  </Typography>
                )}
              </CardContent>
            </Card>
          ))}
        </Stack>
      </Box>
      <AddDoctorModal open={adding} onClose={() => setAdding(false)} mine={new Set(doctors.map((d) => d.doctor_id))} />
      <Dialog open={Boolean(allSlotsOf)} onClose={() => setAllSlotsOf(null)} fullWidth maxWidth="sm">
        <DialogTitle>Available Appointments</DialogTitle>
        <DialogContent>{allSlotsOf && <SlotChips doctor={allSlotsOf} slots={allSlotsOf.availableSlots} shown={Number.MAX_SAFE_INTEGER} />}</DialogContent>
      </Dialog>
    </Stack>
  );
}
