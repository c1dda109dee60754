import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import PersonAddAlt from '@mui/icons-material/PersonAddAlt';
import { STAFF_ROLES, WEEKDAYS, slugify, type StaffRole, type Weekday } from '@telemed/contracts/institution-constants';
import { ApiError } from '../../lib/api';
import { useT } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { defaultHours, emptyStaff, hoursPayload, hoursProblem, isDoctorRole, staffPayload, type HoursForm, type StaffForm, weekdayName } from './institutionForm';

/** The slug derived from a name (the same rule as the server's). */
export const slugFromName = slugify;

function HoursOfOperation({ hours, onChange }: { hours: HoursForm; onChange: (hours: HoursForm) => void }) {
  const t = useT();
  const set = (day: Weekday, change: Partial<HoursForm[Weekday]>) => onChange({ ...hours, [day]: { ...hours[day], ...change } });
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1">
        {t('institution.hoursOfOperation')}
      </Typography>
      {WEEKDAYS.map((day) => {
        const name = weekdayName(day, t.intl.locale);
        return (
          <Stack key={day} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, py: 0.5 }}>
            <FormControlLabel
              sx={{ width: 150 }}
              control={<Checkbox checked={hours[day].open} onChange={(e) => set(day, { open: e.target.checked })} />}
              label={name}
            />
            {hours[day].open ? (
              <>
                <TextField
                  label={t('institution.dayOpens', { day: name })}
                  type="time"
                  size="small"
                  value={hours[day].from}
                  onChange={(e) => set(day, { from: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
                <TextField
                  label={t('institution.dayCloses', { day: name })}
                  type="time"
                  size="small"
                  value={hours[day].to}
                  onChange={(e) => set(day, { to: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
              </>
            ) : (
              <Typography color="text.secondary">{t('institution.closed')}</Typography>
            )}
          </Stack>
        );
      })}
    </Box>
  );
}

function StaffMemberFields({ member, index, onChange, onRemove }: { member: StaffForm; index: number; onChange: (member: StaffForm) => void; onRemove: () => void }) {
  const t = useT();
  const set = (change: Partial<StaffForm>) => onChange({ ...member, ...change });
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="staff-member">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2">{t('institution.staffMemberNumber', { number: index + 1 })}</Typography>
        <IconButton aria-label={t('institution.removeStaffMember', { number: index + 1 })} onClick={onRemove} size="small">
          <DeleteOutlined />
        </IconButton>
      </Stack>
      <Stack spacing={1}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField label={t('institution.name')} required size="small" fullWidth value={member.name} onChange={(e) => set({ name: e.target.value })} />
          <TextField label={t('institution.email')} type="email" required size="small" fullWidth value={member.email} onChange={(e) => set({ email: e.target.value })} />
          <TextField label={t('institution.phone')} type="tel" required size="small" fullWidth placeholder="+91 98765 43210" value={member.phone} onChange={(e) => set({ phone: e.target.value })} />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField label={t('institution.role')} select size="small" sx={{ minWidth: 160 }} value={member.account_type} onChange={(e) => set({ account_type: e.target.value as StaffRole })}>
            {STAFF_ROLES.map((r) => (
              <MenuItem key={r} value={r}>
                {t('institution.staffRole', { role: r })}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={t('institution.roleTitle')} size="small" fullWidth placeholder={t('institution.roleTitlePlaceholder')} value={member.role_title} onChange={(e) => set({ role_title: e.target.value })} />
          <TextField label={t('institution.department')} size="small" fullWidth value={member.department} onChange={(e) => set({ department: e.target.value })} />
          {isDoctorRole(member.account_type) && (
            <TextField label={t('institution.specialization')} size="small" fullWidth value={member.specialization} onChange={(e) => set({ specialization: e.target.value })} />
          )}
        </Stack>
      </Stack>
    </Box>
  );
}

/** Create Institution: the institution, its hours of operation per weekday, and its first staff. */
const emptyInstitution = () => ({ name: '', slug: '', slugTouched: false, address: '', phone: '', email: '' });
const emptyKey = () => JSON.stringify([emptyInstitution(), defaultHours(), [emptyStaff()]]);

export function CreateInstitutionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const [form, setForm] = useState(emptyInstitution);
  const [hours, setHours] = useState<HoursForm>(defaultHours);
  const [staff, setStaff] = useState<StaffForm[]>(() => [emptyStaff()]);
  const [error, setError] = useState<string | null>(null);
  // Anything entered (the institution, its hours, its staff) is asked about before it is dropped.
  const { confirmDiscard } = useUnsavedChanges(open && JSON.stringify([form, hours, staff]) !== emptyKey());
  const reset = () => {
    setForm(emptyInstitution());
    setHours(defaultHours());
    setStaff([emptyStaff()]);
    setError(null);
  };
  const cancel = async () => {
    if (create.isPending || !(await confirmDiscard())) return;
    reset();
    onClose();
  };
  const create = useMutation({
    mutationFn: () =>
      call('createInstitution', {
        body: {
          name: form.name.trim(),
          slug: form.slug,
          address: form.address.trim(),
          phone: form.phone.trim(),
          email: form.email.trim(),
          hours_of_operation: hoursPayload(hours),
          staff: staff.map(staffPayload),
        },
      }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('institution.institutionCreated') });
      reset();
      onClose();
    },
    onError: (e) =>
      setError(e instanceof ApiError ? t('institution.createFailed', { detail: explain(e, 'institution.unknownError') }) : t('institution.createError')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (staff.length === 0) return setError(t('institution.staffRequired'));
    const problem = hoursProblem(hours, t);
    if (problem) return setError(problem);
    setError(null);
    create.mutate();
  };
  return (
    <Dialog open={open} onClose={() => void cancel()} fullWidth maxWidth="md" aria-labelledby="create-institution-title">
      <Box component="form" onSubmit={submit}>
        <DialogTitle id="create-institution-title">{t('institution.createInstitution')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label={t('institution.institutionName')}
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value, slug: form.slugTouched ? form.slug : slugFromName(e.target.value) })}
            />
            <TextField label={t('institution.slug')} required value={form.slug} onChange={(e) => setForm({ ...form, slug: slugFromName(e.target.value), slugTouched: true })} />
            <TextField label={t('institution.address')} required value={form.address} onChange={(e) => setForm({ ...form, address: e.target.value })} />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField label={t('institution.phone')} type="tel" required fullWidth value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
              <TextField label={t('institution.email')} type="email" required fullWidth value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
            </Stack>
            <Divider />
            <HoursOfOperation hours={hours} onChange={setHours} />
            <Divider />
            <Typography variant="subtitle1">{t('institution.staff')}</Typography>
            {staff.map((member, i) => (
              <StaffMemberFields
                key={i}
                member={member}
                index={i}
                onChange={(next) => setStaff(staff.map((s, j) => (j === i ? next : s)))}
                onRemove={() => setStaff(staff.filter((_s, j) => j !== i))}
              />
            ))}
            <Button startIcon={<PersonAddAlt />} onClick={() => setStaff([...staff, emptyStaff()])} sx={{ alignSelf: 'flex-start' }}>
              {t('institution.addStaffMember')}
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void cancel()}>{t('institution.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {t(create.isPending ? 'institution.creating' : 'institution.createInstitution')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
