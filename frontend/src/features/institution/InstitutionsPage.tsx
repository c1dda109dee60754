import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { DesktopLogout } from './DesktopLogout';
import { useConfirm } from '../../lib/confirm';
import { longDate, timeOfDay } from '../../lib/time';
import { CreateInstitutionDialog } from './CreateInstitutionDialog';

type Institution = ApiRoutes['listInstitutions']['response'][number];
/** What the staff and appointments dialogs show of an institution. */
type InstitutionRef = Pick<Institution, 'id' | 'name'>;

export { slugFromName } from './CreateInstitutionDialog';

function StaffDialog({ institution, onClose }: { institution: InstitutionRef; onClose: () => void }) {
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const staff = useQuery({ queryKey: ['institutions', institution.id, 'staff'], queryFn: () => call('listInstitutionStaff', { params: { id: institution.id } }) });
  const remove = useMutation({
    mutationFn: (userId: string) => call('removeInstitutionStaffMember', { params: { id: institution.id, user_id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['institutions', institution.id, 'staff'] }),
    onError: (e) => toasts.show({ type: 'error', title: e instanceof ApiError ? 'Failed to remove staff member' : 'Error removing staff member' }),
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Staff Members — {institution.name}</DialogTitle>
      <DialogContent>
        {staff.isLoading && <CircularProgress />}
        {staff.data?.length === 0 && <Typography>No staff members</Typography>}
        {staff.data && staff.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Phone</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {staff.data.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.name}</TableCell>
                  <TableCell>{s.role_title ? `${s.account_type} · ${s.role_title}` : s.account_type}</TableCell>
                  <TableCell>{s.email}</TableCell>
                  <TableCell>{s.phone}</TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => void confirm({ title: 'Edit', message: 'Edit functionality coming soon!', acknowledgeOnly: true })}>
                      Edit
                    </Button>
                    <Button size="small" color="error" onClick={async () => (await confirm({ title: 'Remove staff member?', message: `Are you sure you want to remove ${s.name}?`, confirmLabel: 'Remove', cancelLabel: 'Cancel', destructive: true })) && remove.mutate(s.user_id)}>
                      Remove
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** How many confirmed appointments the dialog asks for at a time (newest first): never the institution's whole history at once. */
const APPOINTMENTS_PAGE = 100;

export function AppointmentsDialog({ institution, onClose }: { institution: InstitutionRef; onClose: () => void }) {
  const pages = useInfiniteQuery({
    queryKey: ['institutions', institution.id, 'appointments'],
    queryFn: ({ pageParam }) =>
      call('listInstitutionAppointments', {
        params: { id: institution.id },
        query: { appointment_status: 'confirmed', limit: APPOINTMENTS_PAGE, cursor: pageParam || undefined },
      }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === APPOINTMENTS_PAGE ? last[last.length - 1]!.id : undefined),
  });
  const appointments = { isLoading: pages.isLoading, data: pages.data?.pages.flat() };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Confirmed Appointments — {institution.name}</DialogTitle>
      <DialogContent>
        {appointments.isLoading && <CircularProgress />}
        {appointments.data?.length === 0 && <Typography>No appointments</Typography>}
        {appointments.data && appointments.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Patient</TableCell>
                <TableCell>Doctor</TableCell>
                <TableCell>Date &amp; Time</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Notes</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {appointments.data.map((a) => (
                <TableRow key={a.id}>
                  <TableCell>{a.patient.name}</TableCell>
                  <TableCell>{a.doctor.name}</TableCell>
                  <TableCell>
                    {longDate(a.slot.start_at)} {timeOfDay(new Date(a.slot.start_at))}
                  </TableCell>
                  <TableCell>{a.status}</TableCell>
                  <TableCell>{a.notes}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {pages.hasNextPage && (
          <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? 'Loading...' : 'Show older'}
          </Button>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The platform admin's Institution Management page. */
export function InstitutionsPage() {
  const confirm = useConfirm();
  const session = useSession();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [staffOf, setStaffOf] = useState<Institution | null>(null);
  const [appointmentsOf, setAppointmentsOf] = useState<Institution | null>(null);
  const institutions = useQuery({ queryKey: ['institutions', 'all'], queryFn: () => call('listInstitutions') });
  const disband = useMutation({
    mutationFn: (id: string) => call('disbandInstitution', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['institutions'] }),
    onError: (e) => toasts.show({ type: 'error', title: e instanceof ApiError ? 'Failed to disband institution' : 'Error disbanding institution' }),
  });
  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h5" component="h1">
          Institution Management
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography>{session?.user.name}</Typography>
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create Institution
          </Button>
          <DesktopLogout />
        </Stack>
      </Stack>
      {institutions.isLoading && <CircularProgress />}
      {institutions.error && (
        <Alert severity="error">Failed to fetch institutions: {institutions.error instanceof ApiError ? institutions.error.detail : 'Network error'}</Alert>
      )}
      {institutions.data?.length === 0 && <Typography>No institutions</Typography>}
      <Grid container spacing={2}>
        {(institutions.data ?? []).map((inst) => (
          <Grid key={inst.id} size={{ xs: 12, md: 6 }}>
            <Card data-testid="institution-card">
              <CardContent>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography variant="h6">{inst.name}</Typography>
                  <Chip size="small" label={inst.is_active ? 'Active' : 'Inactive'} color={inst.is_active ? 'success' : 'default'} />
                </Stack>
                <Typography color="text.secondary">{inst.slug}</Typography>
                <Typography>{inst.address}</Typography>
                <Typography>
                  {inst.phone} · {inst.email}
                </Typography>
                <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
                  <Button onClick={() => setStaffOf(inst)}>Staff</Button>
                  <Button onClick={() => setAppointmentsOf(inst)}>Appointments</Button>
                  <Button onClick={() => void confirm({ title: 'Edit', message: 'Edit functionality coming soon!', acknowledgeOnly: true })}>Edit</Button>
                  <Button color="error" onClick={async () => (await confirm({ title: 'Disband institution?', message: `Are you sure you want to disband ${inst.name}?`, confirmLabel: 'Disband', cancelLabel: 'Cancel', destructive: true })) && disband.mutate(inst.id)}>
                    Disband
                  </Button>
                </Stack>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <CreateInstitutionDialog open={creating} onClose={() => setCreating(false)} />
      {staffOf && <StaffDialog institution={staffOf} onClose={() => setStaffOf(null)} />}
      {appointmentsOf && <AppointmentsDialog institution={appointmentsOf} onClose={() => setAppointmentsOf(null)} />}
    </Stack>
  );
}
