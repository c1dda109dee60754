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
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { WEEKDAY_NAMES, defaultHours, emptyStaff, hoursPayload, hoursProblem, isDoctorRole, staffPayload, type HoursForm, type StaffForm } from './institutionForm';

/** The slug derived from a name (the same rule as the server's). */
export const slugFromName = slugify;

function HoursOfOperation({ hours, onChange }: { hours: HoursForm; onChange: (hours: HoursForm) => void }) {
  const set = (day: Weekday, change: Partial<HoursForm[Weekday]>) => onChange({ ...hours, [day]: { ...hours[day], ...change } });
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1">
        Hours of operation
      </Typography>
      {WEEKDAYS.map((day) => (
        <Stack key={day} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, py: 0.5 }}>
          <FormControlLabel
            sx={{ width: 150 }}
            control={<Checkbox checked={hours[day].open} onChange={(e) => set(day, { open: e.target.checked })} />}
            label={WEEKDAY_NAMES[day]}
          />
          {hours[day].open ? (
            <>
              <TextField
                label={`${WEEKDAY_NAMES[day]} opens`}
                type="time"
                size="small"
                value={hours[day].from}
                onChange={(e) => set(day, { from: e.target.value })}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                label={`${WEEKDAY_NAMES[day]} closes`}
                type="time"
                size="small"
                value={hours[day].to}
                onChange={(e) => set(day, { to: e.target.value })}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </>
          ) : (
            <Typography color="text.secondary">Closed</Typography>
          )}
        </Stack>
      ))}
    </Box>
  );
}

function StaffMemberFields({ member, index, onChange, onRemove }: { member: StaffForm; index: number; onChange: (member: StaffForm) => void; onRemove: () => void }) {
  const set = (change: Partial<StaffForm>) => onChange({ ...member, ...change });
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="staff-member">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2">Staff member {index + 1}</Typography>
        <IconButton aria-label={`Remove staff member ${index + 1}`} onClick={onRemove} size="small">
          <DeleteOutlined />
        </IconButton>
      </Stack>
      <Stack spacing={1}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField label="Name" required size="small" fullWidth value={member.name} onChange={(e) => set({ name: e.target.value })} />
          <TextField label="Email" type="email" required size="small" fullWidth value={member.email} onChange={(e) => set({ email: e.target.value })} />
          <TextField label="Phone" type="tel" required size="small" fullWidth placeholder="+91 98765 43210" value={member.phone} onChange={(e) => set({ phone: e.target.value })} />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField label="Role" select size="small" sx={{ minWidth: 160 }} value={member.account_type} onChange={(e) => set({ account_type: e.target.value as StaffRole })}>
            {STAFF_ROLES.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Role title" size="small" fullWidth placeholder="e.g. Medical Director" value={member.role_title} onChange={(e) => set({ role_title: e.target.value })} />
          <TextField label="Department" size="small" fullWidth value={member.department} onChange={(e) => set({ department: e.target.value })} />
          {isDoctorRole(member.account_type) && (
            <TextField label="Specialization" size="small" fullWidth value={member.specialization} onChange={(e) => set({ specialization: e.target.value })} />
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
      toasts.show({ type: 'success', title: 'Institution created' });
      reset();
      onClose();
    },
    onError: (e) => setError(e instanceof ApiError ? `Failed to create institution: ${e.detail || 'Unknown error'}` : 'Error creating institution. Please try again.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (staff.length === 0) return setError('At least one staff member is required');
    const problem = hoursProblem(hours);
    if (problem) return setError(problem);
    setError(null);
    create.mutate();
  };
  return (
    <Dialog open={open} onClose={() => void cancel()} fullWidth maxWidth="md" aria-labelledby="create-institution-title">
      <Box component="form" onSubmit={submit}>
        <DialogTitle id="create-institution-title">Create Institution</DialogTitle>
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
            <Divider />
            <HoursOfOperation hours={hours} onChange={setHours} />
            <Divider />
            <Typography variant="subtitle1">Staff</Typography>
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
              Add staff member
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void cancel()}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create Institution'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
