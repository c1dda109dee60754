import { useState, type FormEvent } from 'react';
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
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { DEFAULT_CONSULTATION_FEE, DEFAULT_QUALIFICATION, DEFAULT_SPECIALTY } from '@telemed/contracts/constants';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { DesktopLogout } from './DesktopLogout';
import { useConfirm } from '../../lib/confirm';
import { DoctorAvatar } from '../../components/DoctorAvatar';
import { TruncatedText } from '../../components/TruncatedText';
import { INVITATION_TEXTS } from './Invitations';
import { formatRupees } from '../../lib/money';
import { useUnsavedChanges } from '../../lib/unsavedChanges';

const emptyForm = { name: '', email: '', phone_number: '', qualification: '', specialty: '', consultation_fee: String(DEFAULT_CONSULTATION_FEE) };

/** The add-doctor payload: the seeds' defaults for empty fields, 30-minute appointments always. */
export function addDoctorPayload(form: typeof emptyForm) {
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    phone_number: form.phone_number.trim(),
    specialty: form.specialty.trim() || DEFAULT_SPECIALTY,
    qualification: form.qualification.trim() || DEFAULT_QUALIFICATION,
    consultation_fee: form.consultation_fee === '' ? DEFAULT_CONSULTATION_FEE : Number(form.consultation_fee),
    appointment_duration_minutes: 30 as const,
  };
}

function AddDoctorDialog({ institutionId, open, onClose }: { institutionId: string; open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(emptyForm);
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => call('addInstitutionDoctor', { params: { id: institutionId }, body: addDoctorPayload(form) }),
    onSuccess: async (result) => {
      // An existing account is only invited: it joins when its owner accepts.
      toasts.show({ type: 'success', title: result?.status === 'invited' ? INVITATION_TEXTS.sent : 'Doctor added successfully!' });
      setForm(emptyForm);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (error) =>
      toasts.show({
        type: 'error',
        title: error instanceof ApiError ? `Failed to add doctor: ${error.detail || 'Unknown error'}` : 'Error adding doctor. Please try again.',
      }),
  });
  const field = (name: keyof typeof emptyForm) => ({ value: form[name], onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }) });
  const { confirmDiscard } = useUnsavedChanges(open && (Object.keys(emptyForm) as Array<keyof typeof emptyForm>).some((k) => form[k] !== emptyForm[k]));
  const close = async () => {
    if (add.isPending || !(await confirmDiscard())) return;
    setForm(emptyForm);
    onClose();
  };
  return (
    <Dialog open={open} onClose={() => void close()} fullWidth maxWidth="sm">
      <Box
        component="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <DialogTitle>Add Doctor</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <TextField label="Name" required {...field('name')} />
            <TextField label="Email" type="email" required {...field('email')} />
            <TextField label="Phone" type="tel" required placeholder="+91 98765 43210" {...field('phone_number')} />
            <TextField label="Qualification" required placeholder="e.g. MBBS, MD" {...field('qualification')} />
            <TextField label="Specialty" required {...field('specialty')} />
            <TextField label="Consultation Fee (₹)" type="number" slotProps={{ htmlInput: { min: 0 } }} placeholder="100" {...field('consultation_fee')} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void close()}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add Doctor'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

type MyInstitution = ApiRoutes['getMyInstitution']['response'];

/** The page's title, and the signed-in admin's name with Logout. */
function ManageHeader() {
  const session = useSession();
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Box>
        <Typography variant="h5" component="h1">
          Manage Institution
        </Typography>
        <Typography color="text.secondary">Manage staff members and institution settings</Typography>
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography>{session?.user.name}</Typography>
        <DesktopLogout />
      </Stack>
    </Stack>
  );
}

function InstitutionSummary({ institution }: { institution: MyInstitution }) {
  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="h6">{institution.name}</Typography>
          <Chip size="small" label={institution.is_active ? 'Active' : 'Inactive'} color={institution.is_active ? 'success' : 'default'} />
        </Stack>
        <Typography color="text.secondary">{institution.slug}</Typography>
        <Typography>{institution.address}</Typography>
        <Typography>
          {institution.phone} · {institution.email}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** A doctor of the institution, with Edit (not there yet) and Remove. */
function DoctorCard({ doctor: d, removing, onEdit, onRemove }: { doctor: MyInstitution['doctors'][number]; removing: boolean; onEdit(): void; onRemove(): void }) {
  return (
    <Card data-testid="institution-doctor">
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
          <DoctorAvatar name={d.name || 'Unknown'} size={40} />
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <TruncatedText text={d.name || 'Unknown'} variant="h6" component="h3" />
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
              <Chip size="small" label={d.is_active ? 'Active' : 'Inactive'} color={d.is_active ? 'success' : 'default'} />
              <Chip size="small" label={d.is_institution_admin ? 'Admin' : 'Doctor'} />
            </Stack>
          </Box>
        </Stack>
        <Typography variant="body2">Role: {d.is_institution_admin ? 'Institution Admin' : 'Doctor'}</Typography>
        {d.specialty && <Typography variant="body2">{d.specialty}</Typography>}
        {d.qualification && <Typography variant="body2">{d.qualification}</Typography>}
        {d.email && <TruncatedText text={d.email} variant="body2" />}
        {d.phone_number && <Typography variant="body2">{d.phone_number}</Typography>}
        {d.consultation_fee !== null && <Typography variant="body2">{formatRupees(d.consultation_fee)}</Typography>}
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button onClick={onEdit}>Edit</Button>
          <Button color="error" disabled={removing} onClick={onRemove}>
            Remove
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Accounts invited and not yet joined, each with Withdraw. */
function PendingInvitations({ invitations, withdrawing, onWithdraw }: { invitations: NonNullable<MyInstitution['pending_invitations']>; withdrawing: boolean; onWithdraw(invitationId: string): void }) {
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        Pending invitations
      </Typography>
      {invitations.map((i) => (
        <Card key={i.id} variant="outlined" data-testid="institution-invitation">
          <CardContent>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
              <Box sx={{ minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                  <TruncatedText text={i.name || 'Unknown'} />
                  <Chip size="small" label="Invited" color="warning" />
                </Stack>
                <TruncatedText text={i.email} variant="body2" color="text.secondary" />
              </Box>
              <Button color="error" disabled={withdrawing} onClick={() => onWithdraw(i.id)}>
                Withdraw
              </Button>
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** 'Manage Institution': the institution the signed-in admin runs, and its doctors. */
export function InstitutionAdmin() {
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const institution = useQuery({ queryKey: ['institutions', 'mine'], queryFn: () => call('getMyInstitution') });
  const remove = useMutation({
    mutationFn: (doctorId: string) => call('removeInstitutionDoctor', { params: { id: institution.data!.id, doctor_id: doctorId } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: 'Doctor removed successfully' });
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (error) => toasts.show({ type: 'error', title: error instanceof ApiError ? 'Failed to remove doctor' : 'Error removing doctor' }),
  });
  const withdraw = useMutation({
    mutationFn: (invitationId: string) => call('revokeInvitation', { params: { id: institution.data!.id, invitation_id: invitationId } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: 'Invitation withdrawn' });
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: () => toasts.show({ type: 'error', title: 'Failed to withdraw invitation' }),
  });
  const error = institution.error;
  return (
    <Stack spacing={3}>
      <ManageHeader />
      {institution.isLoading && <CircularProgress />}
      {error && (
        <Alert severity="error">
          <strong>Error</strong> —{' '}
          {error instanceof ApiError && error.status === 404 ? 'You are not an admin of any institution' : `Failed to fetch institution: ${error instanceof ApiError ? error.detail : 'Network error'}`}
        </Alert>
      )}
      {institution.data && (
        <>
          <InstitutionSummary institution={institution.data} />
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h6" component="h2">
              Doctors
            </Typography>
            <Button variant="contained" onClick={() => setAdding(true)}>
              Add Doctor
            </Button>
          </Stack>
          {institution.data.doctors.length === 0 ? (
            <Card>
              <CardContent>
                <Typography variant="subtitle1">No doctors</Typography>
                <Typography color="text.secondary">Get started by adding your first doctor</Typography>
              </CardContent>
            </Card>
          ) : (
            <Grid container spacing={2}>
              {institution.data.doctors.map((d) => (
                <Grid key={d.doctor_id} size={{ xs: 12, md: 6 }}>
                  <DoctorCard
                    doctor={d}
                    removing={remove.isPending}
                    onEdit={() => void confirm({ title: 'Edit', message: 'Edit functionality coming soon!', acknowledgeOnly: true })}
                    onRemove={async () => (await confirm({ title: 'Remove doctor?', message: `Are you sure you want to remove ${d.name || 'this doctor'}?`, confirmLabel: 'Remove', cancelLabel: 'Cancel', destructive: true })) && remove.mutate(d.doctor_id)}
                  />
                </Grid>
              ))}
            </Grid>
          )}
          {(institution.data.pending_invitations ?? []).length > 0 && (
            <PendingInvitations invitations={institution.data.pending_invitations ?? []} withdrawing={withdraw.isPending} onWithdraw={(id) => withdraw.mutate(id)} />
          )}
          <AddDoctorDialog institutionId={institution.data.id} open={adding} onClose={() => setAdding(false)} />
        </>
      )}
    </Stack>
  );
}
