import { Suspense, lazy, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import EventOutlined from '@mui/icons-material/EventOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HourglassTopOutlined from '@mui/icons-material/HourglassTopOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import EditCalendarOutlined from '@mui/icons-material/EditCalendarOutlined';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import type { ReactNode } from 'react';
import { Alert, Avatar, Box, Button, Card, CardContent, Chip, CircularProgress, Grid, IconButton, Stack, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { doctorRows } from '../../lib/myAppointments';
import { browserZone } from '../../lib/time';
import { initials } from '../../lib/session';
import { useRealtime } from '../../app/RealtimeProvider';
import type { PendingAppointment } from '@telemed/contracts';
import { RequestBanner } from './RequestBanner';
import { RejectDialog } from './RejectDialog';
import { useDecision } from './useDecision';
import { AvailabilityCalendar } from './calendar/AvailabilityCalendar';
import { useSchedule } from './calendar/useSchedule';
import { addDays, weekStart } from './calendar/model';
import { REVENUE_CHART_HEIGHT, earningPoints } from './revenue';
import { PendingInvitations } from '../institution/Invitations';
import { RecentConsultations } from '../records/RecentConsultations';
import { FollowUpOf } from './FollowUpOf';
import { AllDoctors } from './AllDoctors';
import { useWaitingInLobby } from '../video/lobbyPresence';
import { CampaignCard, SocialContent } from '../blog/SocialContent';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

const RevenueChart = lazy(() => import('./RevenueChart'));

/** The doctor's confirmed and completed appointments, past ones included (the week's patients). */
function useConsultationHistory(zone: string) {
  return useQuery({
    queryKey: ['appointments', 'history', zone],
    queryFn: () =>
      call('listMyAppointments', { query: { status: 'confirmed,completed', include_past: 'true', timezone_str: zone } })
        .then(doctorRows)
        .catch(() => []),
  });
}

/** The fees the doctor actually kept (issue 36), by month in their zone, and today's. */
function useEarnings(zone: string) {
  return useQuery({ queryKey: ['earnings', zone], queryFn: () => call('getMyEarnings', { query: { months: 6, timezone_str: zone } }) });
}

function MonthlyRevenue({ zone }: { zone: string }) {
  const t = useT();
  const f = useFormat();
  const earnings = useEarnings(zone);
  const points = earningPoints(earnings.data?.months ?? [], f.locale);
  const total = points.reduce((sum, p) => sum + p.revenue, 0);
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('doctor.monthlyRevenue')}
        </Typography>
        <Typography color="text.secondary" data-testid="revenue-total">
          {t('doctor.revenueTotal', { total: f.rupees(total), months: points.length })}
        </Typography>
        <Typography color="text.secondary" data-testid="revenue-today">
          {t('doctor.earnedToday', { amount: f.rupees(earnings.data?.today.rupees ?? 0) })}
        </Typography>
        <Suspense
          fallback={
            <Box sx={{ height: REVENUE_CHART_HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              <CircularProgress size={20} />
            </Box>
          }
        >
          <RevenueChart points={points} />
        </Suspense>
      </CardContent>
    </Card>
  );
}

function UpcomingSchedule({ zone }: { zone: string }) {
  const t = useT();
  const f = useFormat();
  const { schedule, available, booked, save, upcoming } = useSchedule(zone);
  const [open, setOpen] = useState(false);
  const hasAny = available.size + booked.size > 0;
  return (
    <Card>
      <CardContent>
        {/* The button goes under the heading when both do not fit (a phone, Tamil's longer words), never past the card. */}
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <Typography variant="h6" component="h2">
            {t('doctor.upcomingSchedule')}
          </Typography>
          <Button variant="contained" startIcon={<EditCalendarOutlined />} sx={{ maxWidth: '100%' }} onClick={() => setOpen(true)} disabled={schedule.isLoading}>
            {t(hasAny ? 'doctor.editAvailability' : 'doctor.createAvailability')}
          </Button>
        </Stack>
        {!schedule.isLoading && upcoming.length === 0 && <Typography color="text.secondary">{t('doctor.noUpcomingAvailability')}</Typography>}
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
          {upcoming.slice(0, UPCOMING_SHOWN).map((s) => (
            <Chip key={s.start_at} label={f.whenPhrase(s.start_at)} variant="outlined" />
          ))}
          {upcoming.length > UPCOMING_SHOWN && <Chip label={t('doctor.moreSlots', { count: upcoming.length - UPCOMING_SHOWN })} />}
        </Stack>
      </CardContent>
      <AvailabilityCalendar
        open={open}
        zone={zone}
        initial={available}
        booked={booked}
        saving={save.isPending}
        onCancel={() => setOpen(false)}
        onSave={(keys) => save.mutate(keys, { onSuccess: () => setOpen(false) })}
      />
    </Card>
  );
}

export const UPCOMING_SHOWN = 6;

function StatCard({ title, value, note, testId, width = 3, icon }: { title: string; value: number; note?: string; testId?: string; width?: number; icon: ReactNode }) {
  const f = useFormat();
  return (
    <Grid size={{ xs: 12, sm: 6, md: width }}>
      <Card sx={{ height: '100%' }}>
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main' }}>
            <Box aria-hidden sx={{ display: 'flex' }}>{icon}</Box>
            <Typography variant="overline" color="text.secondary">{title}</Typography>
          </Stack>
          <Typography variant="h4" data-testid={testId}>
            {f.count(value)}
          </Typography>
          {note && (
            <Typography variant="body2" color="text.secondary">
              {note}
            </Typography>
          )}
        </CardContent>
      </Card>
    </Grid>
  );
}

/** 'Moved by the patient (was Tomorrow at 10:00 am)': a request that is a move, not a new patient. */
export function MovedFrom({ movedFrom }: { movedFrom: NonNullable<PendingAppointment['moved_from']> }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'warning.dark' }} data-testid="moved-from">
      <EventRepeatOutlined fontSize="small" aria-hidden />
      <Typography variant="body2">{t('doctor.movedFrom', { by: movedFrom.by, when: f.whenPhrase(movedFrom.start_at) })}</Typography>
    </Stack>
  );
}

function PendingRequests() {
  const t = useT();
  const f = useFormat();
  const zone = browserZone();
  const pending = useQuery({ queryKey: ['appointments', 'pending'], queryFn: () => call('listPendingAppointments', { query: { timezone_str: zone } }).catch(() => []) });
  const decide = useDecision();
  const [rejecting, setRejecting] = useState<PendingAppointment | null>(null);
  const list = pending.data ?? [];
  return (
    <Card>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="h6" component="h2">
                {t('doctor.pendingRequests')}
              </Typography>
              <Chip size="small" color="primary" label={t('doctor.requestCount', { count: list.length })} />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {t('doctor.pendingRequestsSubtitle')}
            </Typography>
          </Box>
          <IconButton aria-label={t('doctor.refreshPendingRequests')} onClick={() => void pending.refetch()}>
            <RefreshOutlined />
          </IconButton>
        </Stack>
        {pending.isLoading && <Typography sx={{ mt: 2 }}>{t('doctor.loadingPendingRequests')}</Typography>}
        {!pending.isLoading && list.length === 0 && (
          <Box sx={{ mt: 2, textAlign: 'center' }}>
            <TaskAltOutlined color="success" sx={{ fontSize: 40 }} aria-hidden />
            <Typography variant="subtitle1">{t('doctor.allCaughtUp')}</Typography>
            <Typography color="text.secondary">{t('doctor.noPendingRequests')}</Typography>
          </Box>
        )}
        <Stack spacing={1} sx={{ mt: 2 }}>
          {list.map((p) => {
            const busy = decide.isPending && decide.variables?.id === p.appointment_id;
            return (
              <Card key={p.appointment_id} variant="outlined" data-testid="pending-request">
                <CardContent>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
                    <Avatar>{initials(p.patient_name)}</Avatar>
                    <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} title={p.patient_name}>
                        {p.patient_name} <Typography component="span" variant="caption" color="text.secondary">{f.ageLabel(p.created_at)}</Typography>
                      </Typography>
                      <Typography variant="body2">{f.whenPhrase(p.slot.start_at)}</Typography>
                      {p.moved_from && <MovedFrom movedFrom={p.moved_from} />}
                      {p.follow_up_of && <FollowUpOf earlier={p.follow_up_of} />}
                      <Typography variant="body2" color="text.secondary">
                        {p.notes}
                        {p.patient_phone ? ` · ${p.patient_phone}` : ''}
                      </Typography>
                    </Box>
                    <Stack direction="row" spacing={1}>
                      <Button variant="contained" disabled={busy} onClick={() => decide.mutate({ id: p.appointment_id, action: 'approve' })}>
                        {t(busy && decide.variables?.action === 'approve' ? 'doctor.approving' : 'doctor.approve')}
                      </Button>
                      <Button color="error" disabled={busy} onClick={() => setRejecting(p)}>
                        {t(busy && decide.variables?.action === 'reject' ? 'doctor.rejecting' : 'doctor.reject')}
                      </Button>
                    </Stack>
                  </Stack>
                </CardContent>
              </Card>
            );
          })}
        </Stack>
      </CardContent>
      <RejectDialog
        patientName={rejecting?.patient_name ?? ''}
        open={Boolean(rejecting)}
        onCancel={() => setRejecting(null)}
        onReject={(reason) => {
          if (rejecting) decide.mutate({ id: rejecting.appointment_id, action: 'reject', reason });
          setRejecting(null);
        }}
      />
    </Card>
  );
}

/** The doctor's dashboard: live request banner, stats from real data, pending requests, upcoming appointments. */
export function DoctorHome() {
  const t = useT();
  const f = useFormat();
  const navigate = useNavigate();
  const zone = browserZone();
  const { requests, dismissRequest, client } = useRealtime();
  const decide = useDecision();
  const appointments = useQuery({
    queryKey: ['appointments', 'me'],
    queryFn: () => call('listMyAppointments', { query: { timezone_str: zone } }).then(doctorRows).catch(() => []),
  });
  const pending = useQuery({ queryKey: ['appointments', 'pending'], queryFn: () => call('listPendingAppointments').catch(() => []) });
  const consultationHistory = useConsultationHistory(zone);
  const confirmed = (appointments.data ?? []).filter((a) => a.status === 'confirmed');
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const todays = confirmed.filter((a) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(a.slot.start_at)) === today);
  const latest = requests[0];
  const upcoming = confirmed.slice(0, UPCOMING_SHOWN);
  // Live from the server: the patients of these appointments who are waiting in the consultation's lobby now.
  const waitingIds = useWaitingInLobby(client, upcoming.map((a) => a.appointment_id));
  const waiting = upcoming.filter((a) => waitingIds.has(a.appointment_id));
  const goToCall = (id: string) => navigate(`/video-call?appointment_id=${id}`);
  const weekStartDay = weekStart(today);
  const dayOf = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(iso));
  // Patients seen or booked this week (Sunday to Saturday), from the real appointments.
  const weeklyPatients = new Set(
    (consultationHistory.data ?? [])
      .filter((a) => dayOf(a.slot.start_at) >= weekStartDay && dayOf(a.slot.start_at) < addDays(weekStartDay, 7))
      .map((a) => a.patient_id),
  ).size;

  return (
    <Stack spacing={3}>
      {latest && (
        // Sticky under the header: the request stays in view however far the doctor has scrolled.
        <Box data-testid="request-banner-dock" sx={{ position: 'sticky', top: { xs: 64, sm: 72 }, zIndex: (theme) => theme.zIndex.appBar - 1, boxShadow: 3, borderRadius: 1 }}>
          <RequestBanner
            key={latest.appointment_id}
            request={latest}
            onApprove={() => decide.mutate({ id: latest.appointment_id, action: 'approve' })}
            onReject={(reason) => decide.mutate({ id: latest.appointment_id, action: 'reject', reason })}
            onReview={() => document.getElementById('pending-requests')?.scrollIntoView({ behavior: 'smooth' })}
            onClose={() => dismissRequest(latest.appointment_id)}
          />
        </Box>
      )}
      <Typography variant="h5" component="h1">
        {t('doctor.dashboardTitle')}
      </Typography>
      {/* Each Alert is announced as it appears (role alert): a patient has just started waiting. */}
      <Box data-testid="lobby-waiting">
        {waiting.map((a) => (
          <Alert
            key={a.appointment_id}
            severity="info"
            icon={<VideocamOutlined />}
            sx={{ mb: 1 }}
            action={
              <Button color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }} onClick={() => goToCall(a.appointment_id)}>
                {t('doctor.goToCall')}
              </Button>
            }
          >
            {t('doctor.patientWaiting', { name: a.patient_name })}
          </Alert>
        ))}
      </Box>
      <PendingInvitations />
      <Grid container spacing={2}>
        <StatCard
          title={t('doctor.todaysAppointments')}
          icon={<EventOutlined />}
          value={todays.length}
          note={confirmed[0] ? t('doctor.nextAppointment', { when: f.whenPhrase(confirmed[0].slot.start_at) }) : t('doctor.noUpcomingAppointments')}
        />
        <StatCard title={t('doctor.weeklyPatients')} icon={<GroupsOutlined />} value={weeklyPatients} testId="weekly-patients" />
        <StatCard title={t('doctor.pendingRequests')} icon={<HourglassTopOutlined />} value={pending.data?.length ?? 0} testId="pending-count" />
        <CampaignCard />
      </Grid>
      <Box id="pending-requests">
        <PendingRequests />
      </Box>
      <UpcomingSchedule zone={zone} />
      <MonthlyRevenue zone={zone} />
      <SocialContent />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            {t('doctor.upcomingAppointments')}
          </Typography>
          {appointments.isLoading && <CircularProgress size={20} />}
          {!appointments.isLoading && confirmed.length === 0 && <Typography color="text.secondary">{t('doctor.noUpcomingAppointments')}</Typography>}
          <Stack spacing={1} sx={{ mt: 1 }}>
            {upcoming.map((a) => (
              <Stack key={a.appointment_id} direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }} data-testid="upcoming-appointment">
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }} noWrap title={a.patient_name}>
                    {a.patient_name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {f.whenPhrase(a.slot.start_at)} · {a.notes}
                  </Typography>
                  {waitingIds.has(a.appointment_id) && <Chip size="small" color="success" label={t('doctor.patientWaitingChip')} sx={{ mt: 0.5 }} data-testid="patient-waiting" />}
                </Box>
                <Button variant={waitingIds.has(a.appointment_id) ? 'contained' : 'outlined'} startIcon={<VideocamOutlined />} sx={{ flexShrink: 0 }} onClick={() => goToCall(a.appointment_id)}>
                  {t('doctor.joinNow')}
                </Button>
              </Stack>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <RecentConsultations />
      <AllDoctors />
    </Stack>
  );
}
