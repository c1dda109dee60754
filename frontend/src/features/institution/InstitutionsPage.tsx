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
import { CreateInstitutionDialog } from './CreateInstitutionDialog';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';
import { useErrorText } from '../../i18n/errorText';

type Institution = ApiRoutes['listInstitutions']['response'][number];
/** What the staff and appointments dialogs show of an institution. */
type InstitutionRef = Pick<Institution, 'id' | 'name'>;

export { slugFromName } from './CreateInstitutionDialog';

function StaffDialog({ institution, onClose }: { institution: InstitutionRef; onClose: () => void }) {
  const t = useT();
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const staff = useQuery({ queryKey: ['institutions', institution.id, 'staff'], queryFn: () => call('listInstitutionStaff', { params: { id: institution.id } }) });
  const remove = useMutation({
    mutationFn: (userId: string) => call('removeInstitutionStaffMember', { params: { id: institution.id, user_id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['institutions', institution.id, 'staff'] }),
    onError: (e) => toasts.show({ type: 'error', title: t(e instanceof ApiError ? 'institution.removeStaffFailed' : 'institution.removeStaffError') }),
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{t('institution.staffMembersOf', { name: institution.name })}</DialogTitle>
      <DialogContent>
        {staff.isLoading && <CircularProgress />}
        {staff.data?.length === 0 && <Typography>{t('institution.noStaffMembers')}</Typography>}
        {staff.data && staff.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('institution.name')}</TableCell>
                <TableCell>{t('institution.role')}</TableCell>
                <TableCell>{t('institution.email')}</TableCell>
                <TableCell>{t('institution.phone')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {staff.data.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.name}</TableCell>
                  <TableCell>{s.role_title ? `${t('institution.staffRole', { role: s.account_type })} · ${s.role_title}` : t('institution.staffRole', { role: s.account_type })}</TableCell>
                  <TableCell>{s.email}</TableCell>
                  <TableCell>{s.phone}</TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => void confirm({ title: t('institution.edit'), message: t('institution.editComingSoon'), confirmLabel: t('common.ok'), acknowledgeOnly: true })}>
                      {t('institution.edit')}
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      onClick={async () =>
                        (await confirm({
                          title: t('institution.removeStaffTitle'),
                          message: t('institution.removeNamed', { name: s.name }),
                          confirmLabel: t('institution.remove'),
                          cancelLabel: t('institution.cancel'),
                          destructive: true,
                        })) && remove.mutate(s.user_id)
                      }
                    >
                      {t('institution.remove')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('institution.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** How many confirmed appointments the dialog asks for at a time (newest first): never the institution's whole history at once. */
const APPOINTMENTS_PAGE = 100;

export function AppointmentsDialog({ institution, onClose }: { institution: InstitutionRef; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
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
      <DialogTitle>{t('institution.confirmedAppointmentsOf', { name: institution.name })}</DialogTitle>
      <DialogContent>
        {appointments.isLoading && <CircularProgress />}
        {appointments.data?.length === 0 && <Typography>{t('institution.noAppointments')}</Typography>}
        {appointments.data && appointments.data.length > 0 && (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('institution.patient')}</TableCell>
                <TableCell>{t('institution.doctor')}</TableCell>
                <TableCell>{t('institution.dateTime')}</TableCell>
                <TableCell>{t('institution.status')}</TableCell>
                <TableCell>{t('institution.notes')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {appointments.data.map((a) => (
                <TableRow key={a.id}>
                  <TableCell>{a.patient.name}</TableCell>
                  <TableCell>{a.doctor.name}</TableCell>
                  <TableCell>{t('institution.appointmentWhen', { date: f.longDate(a.slot.start_at), time: f.timeOfDay(new Date(a.slot.start_at)) })}</TableCell>
                  <TableCell>{t('institution.appointmentStatus', { status: a.status })}</TableCell>
                  <TableCell>{a.notes}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {pages.hasNextPage && (
          <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {t(pages.isFetchingNextPage ? 'institution.loading' : 'institution.showOlder')}
          </Button>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('institution.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The platform admin's Institution Management page. */
export function InstitutionsPage() {
  const t = useT();
  const explain = useErrorText();
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
    onError: (e) => toasts.show({ type: 'error', title: t(e instanceof ApiError ? 'institution.disbandFailed' : 'institution.disbandError') }),
  });
  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="h5" component="h1">
          {t('institution.institutionManagement')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography>{session?.user.name}</Typography>
          <Button variant="contained" onClick={() => setCreating(true)}>
            {t('institution.createInstitution')}
          </Button>
          <DesktopLogout />
        </Stack>
      </Stack>
      {institutions.isLoading && <CircularProgress />}
      {institutions.error && (
        <Alert severity="error">{t('institution.fetchInstitutionsFailed', { detail: explain(institutions.error, 'institution.networkError') })}</Alert>
      )}
      {institutions.data?.length === 0 && <Typography>{t('institution.noInstitutions')}</Typography>}
      <Grid container spacing={2}>
        {(institutions.data ?? []).map((inst) => (
          <Grid key={inst.id} size={{ xs: 12, md: 6 }}>
            <Card data-testid="institution-card">
              <CardContent>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography variant="h6">{inst.name}</Typography>
                  <Chip size="small" label={t(inst.is_active ? 'institution.active' : 'institution.inactive')} color={inst.is_active ? 'success' : 'default'} />
                </Stack>
                <Typography color="text.secondary">{inst.slug}</Typography>
                <Typography>{inst.address}</Typography>
                <Typography>
                  {inst.phone} · {inst.email}
                </Typography>
                <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
                  <Button onClick={() => setStaffOf(inst)}>{t('institution.staff')}</Button>
                  <Button onClick={() => setAppointmentsOf(inst)}>{t('institution.appointments')}</Button>
                  <Button onClick={() => void confirm({ title: t('institution.edit'), message: t('institution.editComingSoon'), confirmLabel: t('common.ok'), acknowledgeOnly: true })}>
                    {t('institution.edit')}
                  </Button>
                  <Button
                    color="error"
                    onClick={async () =>
                      (await confirm({
                        title: t('institution.disbandTitle'),
                        message: t('institution.disbandQuestion', { name: inst.name }),
                        confirmLabel: t('institution.disband'),
                        cancelLabel: t('institution.cancel'),
                        destructive: true,
                      })) && disband.mutate(inst.id)
                    }
                  >
                    {t('institution.disband')}
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
