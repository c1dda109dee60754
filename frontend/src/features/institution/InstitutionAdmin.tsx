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
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';
import { useErrorText } from '../../i18n/errorText';

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
  const t = useT();
  const explain = useErrorText();
  const [form, setForm] = useState(emptyForm);
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => call('addInstitutionDoctor', { params: { id: institutionId }, body: addDoctorPayload(form) }),
    onSuccess: async (result) => {
      // An existing account is only invited: it joins when its owner accepts.
      toasts.show({ type: 'success', title: t(result?.status === 'invited' ? 'institution.invitationSent' : 'institution.doctorAdded') });
      setForm(emptyForm);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (error) =>
      toasts.show({
        type: 'error',
        title: error instanceof ApiError ? t('institution.addDoctorFailed', { detail: explain(error, 'institution.unknownError') }) : t('institution.addDoctorError'),
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
        <DialogTitle>{t('institution.addDoctor')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <TextField label={t('institution.name')} required {...field('name')} />
            <TextField label={t('institution.email')} type="email" required {...field('email')} />
            <TextField label={t('institution.phone')} type="tel" required placeholder="+91 98765 43210" {...field('phone_number')} />
            <TextField label={t('institution.qualification')} required placeholder={t('institution.qualificationPlaceholder')} {...field('qualification')} />
            <TextField label={t('institution.specialty')} required {...field('specialty')} />
            <TextField label={t('institution.consultationFee')} type="number" slotProps={{ htmlInput: { min: 0 } }} placeholder="100" {...field('consultation_fee')} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void close()}>{t('institution.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={add.isPending}>
            {t(add.isPending ? 'institution.adding' : 'institution.addDoctor')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

type MyInstitution = ApiRoutes['getMyInstitution']['response'];

/** The page's title, and the signed-in admin's name with Logout. */
function ManageHeader() {
  const t = useT();
  const session = useSession();
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Box>
        <Typography variant="h5" component="h1">
          {t('institution.manageInstitution')}
        </Typography>
        <Typography color="text.secondary">{t('institution.manageSubtitle')}</Typography>
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography>{session?.user.name}</Typography>
        <DesktopLogout />
      </Stack>
    </Stack>
  );
}

function InstitutionSummary({ institution }: { institution: MyInstitution }) {
  const t = useT();
  return (
    <Card>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="h6">{institution.name}</Typography>
          <Chip size="small" label={t(institution.is_active ? 'institution.active' : 'institution.inactive')} color={institution.is_active ? 'success' : 'default'} />
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
  const t = useT();
  const f = useFormat();
  const name = d.name || t('institution.unknownName');
  return (
    <Card data-testid="institution-doctor">
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
          <DoctorAvatar name={name} size={40} />
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <TruncatedText text={name} variant="h6" component="h3" />
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
              <Chip size="small" label={t(d.is_active ? 'institution.active' : 'institution.inactive')} color={d.is_active ? 'success' : 'default'} />
              <Chip size="small" label={t(d.is_institution_admin ? 'institution.admin' : 'institution.doctor')} />
            </Stack>
          </Box>
        </Stack>
        <Typography variant="body2">{t(d.is_institution_admin ? 'institution.roleInstitutionAdmin' : 'institution.roleDoctor')}</Typography>
        {d.specialty && <Typography variant="body2">{d.specialty}</Typography>}
        {d.qualification && <Typography variant="body2">{d.qualification}</Typography>}
        {d.email && <TruncatedText text={d.email} variant="body2" />}
        {d.phone_number && <Typography variant="body2">{d.phone_number}</Typography>}
        {d.consultation_fee !== null && <Typography variant="body2">{f.rupees(d.consultation_fee)}</Typography>}
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button onClick={onEdit}>{t('institution.edit')}</Button>
          <Button color="error" disabled={removing} onClick={onRemove}>
            {t('institution.remove')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Accounts invited and not yet joined, each with Withdraw. */
function PendingInvitations({ invitations, withdrawing, onWithdraw }: { invitations: NonNullable<MyInstitution['pending_invitations']>; withdrawing: boolean; onWithdraw(invitationId: string): void }) {
  const t = useT();
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        {t('institution.pendingInvitations')}
      </Typography>
      {invitations.map((i) => (
        <Card key={i.id} variant="outlined" data-testid="institution-invitation">
          <CardContent>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
              <Box sx={{ minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                  <TruncatedText text={i.name || t('institution.unknownName')} />
                  <Chip size="small" label={t('institution.invited')} color="warning" />
                </Stack>
                <TruncatedText text={i.email} variant="body2" color="text.secondary" />
              </Box>
              <Button color="error" disabled={withdrawing} onClick={() => onWithdraw(i.id)}>
                {t('institution.withdraw')}
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
  const t = useT();
  const explain = useErrorText();
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const institution = useQuery({ queryKey: ['institutions', 'mine'], queryFn: () => call('getMyInstitution') });
  const remove = useMutation({
    mutationFn: (doctorId: string) => call('removeInstitutionDoctor', { params: { id: institution.data!.id, doctor_id: doctorId } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: t('institution.doctorRemoved') });
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (error) => toasts.show({ type: 'error', title: t(error instanceof ApiError ? 'institution.removeDoctorFailed' : 'institution.removeDoctorError') }),
  });
  const withdraw = useMutation({
    mutationFn: (invitationId: string) => call('revokeInvitation', { params: { id: institution.data!.id, invitation_id: invitationId } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: t('institution.invitationWithdrawn') });
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: () => toasts.show({ type: 'error', title: t('institution.withdrawFailed') }),
  });
  const error = institution.error;
  return (
    <Stack spacing={3}>
      <ManageHeader />
      {institution.isLoading && <CircularProgress />}
      {error && (
        <Alert severity="error">
          {t.rich('institution.errorAlert', {
            strong: (chunks) => <strong>{chunks}</strong>,
            message:
              error instanceof ApiError && error.status === 404
                ? t('institution.notInstitutionAdmin')
                : t('institution.fetchInstitutionFailed', { detail: explain(error, 'institution.networkError') }),
          })}
        </Alert>
      )}
      {institution.data && (
        <>
          <InstitutionSummary institution={institution.data} />
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h6" component="h2">
              {t('institution.doctors')}
            </Typography>
            <Button variant="contained" onClick={() => setAdding(true)}>
              {t('institution.addDoctor')}
            </Button>
          </Stack>
          {institution.data.doctors.length === 0 ? (
            <Card>
              <CardContent>
                <Typography variant="subtitle1">{t('institution.noDoctors')}</Typography>
                <Typography color="text.secondary">{t('institution.noDoctorsHint')}</Typography>
              </CardContent>
            </Card>
          ) : (
            <Grid container spacing={2}>
              {institution.data.doctors.map((d) => (
                <Grid key={d.doctor_id} size={{ xs: 12, md: 6 }}>
                  <DoctorCard
                    doctor={d}
                    removing={remove.isPending}
                    onEdit={() => void confirm({ title: t('institution.edit'), message: t('institution.editComingSoon'), confirmLabel: t('common.ok'), acknowledgeOnly: true })}
                    onRemove={async () =>
                      (await confirm({
                        title: t('institution.removeDoctorTitle'),
                        message: d.name ? t('institution.removeNamed', { name: d.name }) : t('institution.removeThisDoctor'),
                        confirmLabel: t('institution.remove'),
                        cancelLabel: t('institution.cancel'),
                        destructive: true,
                      })) && remove.mutate(d.doctor_id)
                    }
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
