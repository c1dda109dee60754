import { useState, type FormEvent } from 'react';
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
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { ApiError, api } from '../../lib/api';
import { sessionStore, useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { longDate, timeOfDay } from '../../lib/time';

interface Institution {
  id: string;
  name: string;
  slug: string;
  is_active: boolean;
  address: string;
  phone: string;
  email: string;
}
interface StaffEntry {
  id: string;
  user_id: string;
  name: string;
  email: string;
  phone: string;
  account_type: string;
  role_title: string | null;
}
interface InstitutionAppointment {
  id: string;
  patient: { name: string };
  doctor: { name: string };
  slot: { start_at: string };
  status: string;
  notes: string;
}

export const STAFF_ROLES = ['USER', 'STAFF', 'ADMIN', 'DOCTOR', 'SUPER_DOCTOR'] as const;

/** The slug derived from a name: lowercase letters, digits and hyphens. */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
}

const emptyStaff = () => ({ name: '', email: '', phone: '', account_type: 'ADMIN' as (typeof STAFF_ROLES)[number], role_title: '' });

function CreateInstitutionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', slug: '', slugTouched: false, address: '', phone: '', email: '' });
  const [staff, setStaff] = useState([emptyStaff()]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api('/institutions/', {
        method: 'POST',
        body: {
          name: form.name.trim(),
          slug: form.slug,
          address: form.address.trim(),
          phone: form.phone.trim(),
          email: form.email.trim(),
          staff: staff.map((s) => ({ name: s.name.trim(), email: s.email.trim(), phone: s.phone.trim(), account_type: s.account_type, ...(s.role_title.trim() ? { role_title: s.role_title.trim() } : {}) })),
        },
      }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: 'Institution created' });
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (e) => setError(e instanceof ApiError ? `Failed to create institution: ${e.detail || 'Unknown error'}` : 'Error creating institution. Please try again.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (staff.length === 0) return setError('At least one staff member is required');
    setError(null);
    create.mutate();
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <Box component="form" onSubmit={submit}>
        <DialogTitle>Create Institution</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Institution name"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value, slug: form.slugTouched ? form.slug : slugFromName(e.target.value) })}
            />
            <TextField label="Slug" required value={form.slug} onChange={(e) => setForm({ ...form, slug: slugFromName(e.target.value), slugTouched: true })} />
            <TextField label="Address" required value={form.address} onChange={(e) => setForm({ ...form, address: e.target.value })} />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label="Phone" type="tel" required fullWidth value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
              <TextField label="Email" type="email" required fullWidth value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
            </Stack>
            <Typography variant="subtitle1">Staff</Typography>
            {staff.map((member, i) => (
              <Stack key={i} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
                <TextField label="Name" required size="small" value={member.name} onChange={(e) => setStaff(staff.map((s, j) => (j === i ? { ...s, name: e.target.value } : s)))} />
                <TextField label="Email" type="email" required size="small" value={member.email} onChange={(e) => setStaff(staff.map((s, j) => (j === i ? { ...s, email: e.target.value } : s)))} />
                <TextField label="Phone" type="tel" required size="small" value={member.phone} onChange={(e) => setStaff(staff.map((s, j) => (j === i ? { ...s, phone: e.target.value } : s)))} />
                <TextField
                  label="Role"
                  select
                  size="small"
                  value={member.account_type}
                  onChange={(e) => setStaff(staff.map((s, j) => (j === i ? { ...s, account_type: e.target.value as (typeof STAFF_ROLES)[number] } : s)))}
                  sx={{ minWidth: 140 }}
                >
                  {STAFF_ROLES.map((r) => (
                    <MenuItem key={r} value={r}>
                      {r}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton aria-label={`Remove staff member ${i + 1}`} onClick={() => setStaff(staff.filter((_s, j) => j !== i))}>
                  ×
                </IconButton>
              </Stack>
            ))}
            <Button onClick={() => setStaff([...staff, emptyStaff()])}>Add staff member</Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create Institution'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function StaffDialog({ institution, onClose }: { institution: Institution; onClose: () => void }) {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const staff = useQuery({ queryKey: ['institutions', institution.id, 'staff'], queryFn: () => api<StaffEntry[]>(`/institutions/${institution.id}/staff`) });
  const remove = useMutation({
    mutationFn: (userId: string) => api(`/institutions/${institution.id}/staff/${userId}`, { method: 'DELETE' }),
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
                    <Button size="small" onClick={() => window.alert('Edit functionality coming soon!')}>
                      Edit
                    </Button>
                    <Button size="small" color="error" onClick={() => window.confirm(`Are you sure you want to remove ${s.name}?`) && remove.mutate(s.user_id)}>
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

function AppointmentsDialog({ institution, onClose }: { institution: Institution; onClose: () => void }) {
  const appointments = useQuery({
    queryKey: ['institutions', institution.id, 'appointments'],
    queryFn: () => api<InstitutionAppointment[]>(`/institutions/${institution.id}/appointments?appointment_status=confirmed`),
  });
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The platform admin's Institution Management page. */
export function InstitutionsPage() {
  const session = useSession();
  const navigate = useNavigate();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [staffOf, setStaffOf] = useState<Institution | null>(null);
  const [appointmentsOf, setAppointmentsOf] = useState<Institution | null>(null);
  const institutions = useQuery({ queryKey: ['institutions', 'all'], queryFn: () => api<Institution[]>('/institutions/') });
  const disband = useMutation({
    mutationFn: (id: string) => api(`/institutions/${id}`, { method: 'DELETE' }),
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
          <Button
            onClick={() => {
              sessionStore.clear();
              navigate('/');
            }}
          >
            Logout
          </Button>
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
                  <Button onClick={() => window.alert('Edit functionality coming soon!')}>Edit</Button>
                  <Button color="error" onClick={() => window.confirm(`Are you sure you want to disband ${inst.name}?`) && disband.mutate(inst.id)}>
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
