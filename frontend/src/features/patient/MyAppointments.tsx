import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Box, Button, Card, CardContent, Chip, CircularProgress, Stack, Typography } from '@mui/material';
import { api } from '../../lib/api';
import { browserZone, longDate, timeOfDay } from '../../lib/time';
import { useToasts } from '../../lib/toasts';
import type { PatientAppointment } from './types';

export const JOIN_WINDOW_MS = 2 * 24 * 3600 * 1000;

/** Join now shows when the start is within 2 days from now, or already past. */
export const canJoin = (startIso: string, now = Date.now()) => Date.parse(startIso) - now <= JOIN_WINDOW_MS;

export function MyAppointments() {
  const navigate = useNavigate();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const appointments = useQuery({
    queryKey: ['appointments', 'me'],
    queryFn: () => api<PatientAppointment[]>(`/appointments/me?timezone_str=${encodeURIComponent(browserZone())}`).catch(() => []),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => api(`/appointments/${id}/cancel`, { method: 'POST' }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: 'Appointment cancelled' });
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: () => toasts.show({ type: 'error', title: 'Failed to cancel appointment' }),
  });
  const list = (appointments.data ?? []).filter((a) => a.slot);

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        My Appointments
      </Typography>
      {appointments.isLoading && (
        <Box>
          <CircularProgress size={20} /> Loading appointments...
        </Box>
      )}
      {!appointments.isLoading && list.length === 0 && (
        <Card>
          <CardContent>
            <Typography variant="h6">No upcoming appointments</Typography>
            <Typography color="text.secondary">You&apos;re all caught up! Any new appointments will appear here.</Typography>
          </CardContent>
        </Card>
      )}
      {list.map((a) => (
        <Card key={a.appointment_id} data-testid="appointment-card">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
              <Avatar>{(a.doctor.name || 'U').replace(/^Dr\.?\s*/, '')[0]}</Avatar>
              <Box sx={{ flexGrow: 1 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography variant="h6">{a.doctor.name || 'Unknown Doctor'}</Typography>
                  <Chip size="small" label={a.status} color={a.status === 'confirmed' ? 'success' : 'default'} />
                </Stack>
                <Typography color="text.secondary">{a.doctor.specialty || 'No specialty information'}</Typography>
                <Typography>
                  {longDate(a.slot.start_at)} · {timeOfDay(new Date(a.slot.start_at))} – {timeOfDay(new Date(Date.parse(a.slot.start_at) + 30 * 60_000))}
                </Typography>
                {a.notes && <Typography variant="body2">{a.notes}</Typography>}
                {a.patient?.name && <Typography variant="body2">Patient: {a.patient.name}</Typography>}
                {a.patient?.phone_number && <Typography variant="body2">Phone: {a.patient.phone_number}</Typography>}
              </Box>
              <Stack spacing={1}>
                {a.status === 'confirmed' && canJoin(a.slot.start_at) && (
                  <Button variant="contained" onClick={() => navigate(`/video-call?appointment_id=${a.appointment_id}`)}>
                    Join now
                  </Button>
                )}
                <Button
                  color="error"
                  disabled={cancel.isPending}
                  onClick={() => window.confirm('Are you sure you want to cancel this appointment?') && cancel.mutate(a.appointment_id)}
                >
                  Cancel
                </Button>
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
