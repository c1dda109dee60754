import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, Chip, CircularProgress, Stack, Typography, type ChipProps } from '@mui/material';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import type { PatientMessage } from './messages';
import { useToasts } from '../../lib/toasts';
import { useConfirm } from '../../lib/confirm';
import { isDoctor, useSession } from '../../lib/session';
import { DoctorAvatar } from '../../components/DoctorAvatar';
import { EmptyState } from '../../components/EmptyState';
import { TruncatedText } from '../../components/TruncatedText';
import type { DoctorAppointment, PatientAppointment } from '@telemed/contracts';
import { doctorRows, patientRows } from '../../lib/myAppointments';
import { CancelWithReasonDialog } from './CancelWithReasonDialog';
import { RescheduleDialog, type MovingAppointment } from './RescheduleDialog';
import { DEFAULT_BOOKING_RULES } from '@telemed/contracts/booking-rules';
import { moveCheck, refusalText, type MoveRules } from './reschedule';
import { useBookingRules } from './useBookingRules';
import { openProposal, type Proposal } from './proposal';
import { ProposalPanel } from './ProposalPanel';
import { OfferTimesDialog, type OfferingAppointment } from '../doctor/OfferTimesDialog';
import { canMarkAbsent } from '../doctor/absence';
import { useMarkAbsent } from '../doctor/useMarkAbsent';
import { useNow } from '../../lib/useNow';
import { FollowUpOf } from '../doctor/FollowUpOf';
import { FollowUpDialog, type FollowingUp } from './FollowUpDialog';
import { openFollowUp, type FollowUpOffer } from './followUp';
import { WaitlistSection } from '../waitlist/WaitlistSection';

export const JOIN_WINDOW_MS = 2 * 24 * 3600 * 1000;
const PAST_SHOWN = 20;

/** Join now shows when the start is within 2 days from now, or already past. */
export const canJoin = (startIso: string, now = Date.now()) => Date.parse(startIso) - now <= JOIN_WINDOW_MS;

/** One appointment as either side sees it: the other person, the time, the status and what can be done. */
interface Row {
  id: string;
  status: PatientAppointment['status'];
  statusReason: string | null;
  rejectionReason: string | null;
  /** The reason given with a cancellation (the patient's view: e.g. 'Doctor is no longer available'). */
  cancellationReason: string | null;
  /** The other person's name ('' when the server has none: shown as an unknown doctor or patient). */
  otherName: string;
  /** A patient's view: the doctor's specialty ('' when none is recorded); a doctor's view: nothing. */
  otherDetail: string | null;
  notes: string;
  startAt: string;
  /** Its consultation has begun: it ends with the call and can no longer be cancelled. */
  consultationBegun: boolean;
  /** A patient's view: the doctor's id (their open times to move it to); a doctor's view: ''. */
  doctorId: string;
  /** How many times the patient moved it (a patient's view; 0 in a doctor's). */
  reschedules: number;
  /** A doctor's view: where it was before its last move, and who moved it. */
  movedFrom: DoctorAppointment['moved_from'];
  /** Other times the doctor offered, not yet answered (issue 35). */
  proposal: Proposal | null;
  /** A patient's view of a completed consultation: the follow-up its doctor offered (issue 35). */
  followUp: FollowUpOffer | null;
  /** A follow-up: the earlier consultation it follows (issue 35). */
  followUpOf: DoctorAppointment['follow_up_of'];
}

const fromPatientView = (a: PatientAppointment): Row => ({
  id: a.appointment_id,
  status: a.status,
  statusReason: a.status_reason,
  rejectionReason: a.rejection_reason,
  cancellationReason: a.cancellation_reason,
  otherName: a.doctor.name,
  otherDetail: a.doctor.specialty,
  notes: a.notes,
  startAt: a.slot.start_at,
  consultationBegun: a.consultation_held,
  doctorId: a.doctor.doctor_id,
  reschedules: a.reschedules,
  movedFrom: null,
  proposal: a.proposal,
  followUp: a.follow_up,
  followUpOf: a.follow_up_of,
});

const fromDoctorView = (a: DoctorAppointment): Row => ({
  id: a.appointment_id,
  status: a.status,
  statusReason: a.status_reason,
  rejectionReason: a.rejection_reason,
  cancellationReason: null,
  otherName: a.patient_name,
  otherDetail: null,
  notes: a.notes,
  startAt: a.slot.start_at,
  consultationBegun: a.consultation_held,
  doctorId: '',
  reschedules: 0,
  movedFrom: a.moved_from,
  proposal: a.proposal,
  followUp: null,
  followUpOf: a.follow_up_of,
});

/** What the status chip says (its message id), from the point of view of the one reading it. */
export function statusLabel(row: Pick<Row, 'status' | 'statusReason' | 'startAt'>, viewer: 'patient' | 'doctor', now = Date.now()): { labelId: PatientMessage; color: ChipProps['color'] } {
  const ended = Date.parse(row.startAt) + 30 * 60_000 <= now;
  switch (row.status) {
    case 'requested':
      return { labelId: viewer === 'doctor' ? 'patient.statusAwaitingYourApproval' : 'patient.statusAwaitingApproval', color: 'warning' };
    case 'confirmed':
      return ended ? { labelId: 'patient.statusCompleted', color: 'default' } : { labelId: 'patient.statusConfirmed', color: 'success' };
    case 'completed':
      return { labelId: 'patient.statusCompleted', color: 'default' };
    case 'rejected':
      // Closed by the system when the patient withdrew consent: not a doctor's decision.
      if (row.statusReason === 'consent_withdrawn') return { labelId: viewer === 'doctor' ? 'patient.statusWithdrawnByPatient' : 'patient.statusWithdrawn', color: 'default' };
      return { labelId: 'patient.statusDeclined', color: 'error' };
    case 'no_show': {
      // Who never came (issue 35), as the one reading it sees it.
      if (row.statusReason === 'both_absent') return { labelId: 'patient.statusNobodyJoined', color: 'default' };
      const absent = row.statusReason === 'doctor_absent' ? 'doctor' : 'patient';
      if (absent === viewer) return { labelId: 'patient.statusMissedByYou', color: 'error' };
      return { labelId: absent === 'doctor' ? 'patient.statusDoctorAbsent' : 'patient.statusPatientAbsent', color: 'warning' };
    }
    case 'cancelled':
      if (row.statusReason === 'expired') return { labelId: 'patient.statusExpired', color: 'default' };
      if (row.statusReason === 'proposal_declined') return { labelId: 'patient.statusOtherTimesDeclined', color: 'default' };
      if (row.statusReason === 'proposal_unanswered') return { labelId: 'patient.statusOtherTimesUnanswered', color: 'default' };
      if (row.statusReason === 'late_cancellation' || row.statusReason === 'late_no_show') {
        const countsAsMissed = row.statusReason === 'late_no_show';
        if (viewer === 'patient') return { labelId: countsAsMissed ? 'patient.statusLateByYouMissed' : 'patient.statusLateByYou', color: countsAsMissed ? 'error' : 'default' };
        return { labelId: countsAsMissed ? 'patient.statusLateByPatientMissed' : 'patient.statusLateByPatient', color: 'default' };
      }
      if (row.statusReason === `cancelled_by_${viewer}`) return { labelId: 'patient.statusCancelledByYou', color: 'default' };
      return { labelId: viewer === 'doctor' ? 'patient.statusCancelledByPatient' : 'patient.statusCancelledByDoctor', color: 'default' };
  }
}

/** The other person's name as shown: an unknown one says so. */
function useOtherName(): (row: Row, viewer: 'patient' | 'doctor') => string {
  const t = useT();
  return (row, viewer) => row.otherName || t(viewer === 'doctor' ? 'patient.unknownPatient' : 'patient.unknownDoctor');
}

function useSection(section: 'upcoming' | 'past', doctor: boolean) {
  const zone = browserZone();
  const limit = section === 'past' ? PAST_SHOWN : undefined;
  return useQuery({
    queryKey: ['appointments', 'me', section],
    queryFn: async () => {
      const list = await call('listMyAppointments', { query: { section, timezone_str: zone, limit } }).catch(() => []);
      return doctor ? doctorRows(list).map(fromDoctorView) : patientRows(list).map(fromPatientView);
    },
  });
}

function AppointmentCard({ row, viewer, actions, note, footer }: { row: Row; viewer: 'patient' | 'doctor'; actions?: ReactNode; note?: ReactNode; footer?: ReactNode }) {
  const t = useT();
  const f = useFormat();
  const name = useOtherName()(row, viewer);
  const status = statusLabel(row, viewer);
  const end = new Date(Date.parse(row.startAt) + 30 * 60_000);
  return (
    <Card data-testid="appointment-card" data-status={row.status} data-appointment-id={row.id}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
          <Stack direction="row" spacing={2} sx={{ flexGrow: 1, minWidth: 0 }}>
            <DoctorAvatar name={name} size={44} />
            <Box sx={{ minWidth: 0 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                <TruncatedText text={name} variant="h6" component="h3" />
                <Chip size="small" label={t(status.labelId)} color={status.color} />
                {row.reschedules > 0 && <Chip size="small" variant="outlined" icon={<EventRepeatOutlined />} label={t('patient.movedTimes', { count: row.reschedules })} data-testid="moved-times" />}
              </Stack>
              {row.otherDetail !== null && <Typography color="text.secondary">{row.otherDetail || t('patient.noSpecialty')}</Typography>}
              <Typography>
                {t('patient.appointmentTime', { date: f.longDate(row.startAt), start: f.timeOfDay(new Date(row.startAt)), end: f.timeOfDay(end) })}
              </Typography>
              {row.movedFrom && (
                <Typography variant="body2" color="text.secondary" data-testid="moved-from">
                  {t('doctor.movedFrom', { by: row.movedFrom.by, when: f.whenPhrase(row.movedFrom.start_at) })}
                </Typography>
              )}
              {row.followUpOf && viewer === 'doctor' && <FollowUpOf earlier={row.followUpOf} />}
              {row.followUpOf && viewer === 'patient' && (
                <Typography variant="body2" color="text.secondary" data-testid="follow-up-of">
                  {t('patient.followUpOfConsultation', { date: f.longDate(row.followUpOf.start_at) })}
                </Typography>
              )}
              {row.notes && (
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {t('patient.reasonLine', { reason: row.notes })}
                </Typography>
              )}
              {row.status === 'rejected' && row.rejectionReason && (
                <Typography variant="body2" color={row.statusReason === 'consent_withdrawn' ? 'text.secondary' : 'error.main'}>
                  {t(row.statusReason === 'consent_withdrawn' ? 'patient.withdrawnReason' : 'patient.declinedReason', { reason: row.rejectionReason })}
                </Typography>
              )}
              {row.status === 'cancelled' && row.cancellationReason && (
                <Typography variant="body2" color="text.secondary">
                  {t('patient.cancelledReason', { reason: row.cancellationReason })}
                </Typography>
              )}
              {note}
            </Box>
          </Stack>
          {actions && <Stack spacing={1} direction={{ xs: 'row', sm: 'column' }}>{actions}</Stack>}
        </Stack>
        {/* Under the whole card on a phone; beside the avatar's column from a tablet up. */}
        {footer && <Box sx={{ pl: { sm: 7.5 }, maxWidth: { sm: 640 + 60 } }}>{footer}</Box>}
      </CardContent>
    </Card>
  );
}

/** What an upcoming appointment's card can do, as MyAppointments hands it down. */
interface UpcomingActions {
  cancelBusy: boolean;
  onCancel: (row: Row) => void;
  onMove: (row: Row, movesLeft: number, rules: MoveRules) => void;
  onOffer: (row: Row) => void;
  onMarkAbsent: (row: Row) => void;
  markBusy: boolean;
}

/** 'Other times offered — waiting for the patient', with the times and until when, on the doctor's card. */
function OfferWaitingNote({ proposal }: { proposal: Proposal }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start', color: 'warning.dark', mt: 0.5 }} data-testid="offer-waiting">
      <EventNoteOutlined fontSize="small" aria-hidden />
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('doctor.offerWaiting')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('doctor.offerWaitingTimes', { times: proposal.slots.map((slot) => f.whenPhrase(slot.start_at)).join(' · '), when: f.whenPhrase(proposal.expires_at) })}
        </Typography>
      </Box>
    </Stack>
  );
}

function MarkAbsentButton({ row, actions }: { row: Row; actions: Pick<UpcomingActions, 'onMarkAbsent' | 'markBusy'> }) {
  const t = useT();
  return (
    <Button color="warning" startIcon={<PersonOffOutlined />} disabled={actions.markBusy} onClick={() => actions.onMarkAbsent(row)}>
      {t('doctor.markAbsent')}
    </Button>
  );
}

/** 'Book follow-up (free until <date>)' on a completed consultation whose doctor offered one still open (issue 35). */
function BookFollowUpButton({ offer, onBook }: { offer: FollowUpOffer; onBook: (offer: FollowUpOffer) => void }) {
  const t = useT();
  const f = useFormat();
  const until = f.longDate(offer.until);
  return (
    <Button variant="outlined" startIcon={<EventRepeatOutlined />} onClick={() => onBook(offer)} data-testid="book-follow-up">
      {offer.fee === 0 ? t('patient.bookFollowUpFree', { date: until }) : t('patient.bookFollowUpPaid', { fee: f.rupees(offer.fee), date: until })}
    </Button>
  );
}

function FollowUpBookedNote() {
  const t = useT();
  return (
    <Typography variant="body2" color="success.dark" sx={{ mt: 0.5 }} data-testid="follow-up-booked">
      {t('patient.followUpBookedNote')}
    </Typography>
  );
}

/** An upcoming appointment with what its reader can do now: join, move (by the doctor's rules), offer other times, answer them, mark absent, cancel. */
function UpcomingCard({ row, viewer, now, actions }: { row: Row; viewer: 'patient' | 'doctor'; now: number; actions: UpcomingActions }) {
  const t = useT();
  const navigate = useNavigate();
  const otherName = useOtherName();
  const doctor = viewer === 'doctor';
  // The patient's move is held to this doctor's rules; until they have come, the product's (the server names the rule it applied).
  const { rules: doctorRules } = useBookingRules(doctor ? null : row.doctorId);
  const rules = doctorRules ?? DEFAULT_BOOKING_RULES;
  const move = doctor ? null : moveCheck(row, now, rules);
  const proposal = openProposal(row.proposal, now);
  const offerable = doctor && (row.status === 'requested' || row.status === 'confirmed') && !row.consultationBegun && Date.parse(row.startAt) > now;
  const refusalId = `move-refusal-${row.id}`;
  return (
    <AppointmentCard
      row={row}
      viewer={viewer}
      // Inside the notice or at the limit: the move is shown, disabled, with the reason (not left to a refusal).
      note={
        <>
          {move && !move.allowed && (
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start', color: 'text.secondary', mt: 0.5 }}>
              <EventBusyOutlined fontSize="small" aria-hidden />
              <Typography id={refusalId} variant="body2" color="text.secondary" data-testid="move-refusal">
                {refusalText(t, move.reason, rules)}
              </Typography>
            </Stack>
          )}
          {proposal && doctor && <OfferWaitingNote proposal={proposal} />}
        </>
      }
      footer={proposal && !doctor ? <ProposalPanel appointmentId={row.id} doctorName={otherName(row, viewer)} startAt={row.startAt} proposal={proposal} /> : undefined}
      actions={
        <>
          {row.status === 'confirmed' && canJoin(row.startAt) && (
            <Button variant="contained" startIcon={<VideocamOutlined />} onClick={() => navigate(`/video-call?appointment_id=${row.id}`)}>
              {t(doctor ? 'patient.joinNowDoctor' : 'patient.joinNow')}
            </Button>
          )}
          {doctor && canMarkAbsent(row, now) && <MarkAbsentButton row={row} actions={actions} />}
          {offerable && (
            <Button startIcon={<EventRepeatOutlined />} onClick={() => actions.onOffer(row)}>
              {t('doctor.offerTimes')}
            </Button>
          )}
          {move && (
            <Button
              startIcon={<EventRepeatOutlined />}
              disabled={!move.allowed}
              aria-describedby={move.allowed ? undefined : refusalId}
              onClick={() => move.allowed && actions.onMove(row, move.movesLeft, rules)}
            >
              {t('patient.reschedule')}
            </Button>
          )}
          {!row.consultationBegun && (
            <Button color="error" disabled={actions.cancelBusy} onClick={() => actions.onCancel(row)}>
              {t('patient.cancelButton')}
            </Button>
          )}
        </>
      }
    />
  );
}

/** My Appointments for patients and doctors: the upcoming ones with what can be done, then the past ones with how they ended. */
export function MyAppointments() {
  const toasts = useToasts();
  const confirm = useConfirm();
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const otherName = useOtherName();
  const session = useSession();
  const doctor = isDoctor(session?.user);
  const viewer = doctor ? 'doctor' : 'patient';
  const upcoming = useSection('upcoming', doctor);
  const past = useSection('past', doctor);
  // What depends on the time (the absent button's window, an offer's expiry) follows the clock.
  const now = useNow();
  const cancel = useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string | null }) => call('cancelAppointment', { params: { id }, body: reason ? { reason } : {} }),
    onSuccess: () => toasts.show({ type: 'success', title: t('patient.appointmentCancelled') }),
    // The server's own words when it has a reason (the consultation has begun), else the seeds' line.
    onError: (error) =>
      toasts.show({
        type: 'error',
        title: t('patient.cancelFailed'),
        ...(error instanceof ApiError && error.status === 409 ? { message: explain(error, 'patient.cancelFailed') } : {}),
      }),
  });
  const absent = useMarkAbsent();
  // A doctor tells the patient why (a reason field); a patient is only asked the seeds' question.
  const [doctorCancelling, setDoctorCancelling] = useState<Row | null>(null);
  // The appointment being moved (or offered other times) stays while its dialog closes.
  const [moving, setMoving] = useState<{ open: boolean; appointment: MovingAppointment | null; rules: MoveRules }>({ open: false, appointment: null, rules: DEFAULT_BOOKING_RULES });
  const [offering, setOffering] = useState<{ open: boolean; appointment: OfferingAppointment | null }>({ open: false, appointment: null });
  const [followingUp, setFollowingUp] = useState<{ open: boolean; consultation: FollowingUp | null }>({ open: false, consultation: null });
  const described = (row: Row) =>
    t('patient.appointmentDescribed', { name: otherName(row, viewer), date: f.longDate(row.startAt), time: f.timeOfDay(new Date(row.startAt)) });
  const askCancel = async (row: Row) => {
    if (doctor) return setDoctorCancelling(row);
    const ok = await confirm({
      title: t('patient.cancelAppointmentQuestion'),
      message: t('patient.cancelAppointmentConfirm', { what: described(row) }),
      confirmLabel: t('patient.cancelAppointment'),
      cancelLabel: t('patient.keepIt'),
      destructive: true,
    });
    if (ok) cancel.mutate({ id: row.id, reason: null });
  };
  const actions: UpcomingActions = {
    cancelBusy: cancel.isPending,
    onCancel: (row) => void askCancel(row),
    onMove: (row, movesLeft, rules) =>
      setMoving({ open: true, rules, appointment: { id: row.id, doctorId: row.doctorId, doctorName: row.otherName, startAt: row.startAt, status: row.status, movesLeft } }),
    onOffer: (row) => setOffering({ open: true, appointment: { id: row.id, patientName: row.otherName, startAt: row.startAt } }),
    onMarkAbsent: (row) => void absent.ask({ id: row.id, patientName: row.otherName, startAt: row.startAt }),
    markBusy: absent.isPending,
  };

  return (
    <Stack spacing={3}>
      <CancelWithReasonDialog
        open={doctorCancelling !== null}
        what={doctorCancelling ? described(doctorCancelling) : ''}
        busy={cancel.isPending}
        onKeep={() => setDoctorCancelling(null)}
        onCancel={(reason) => {
          if (doctorCancelling) cancel.mutate({ id: doctorCancelling.id, reason });
          setDoctorCancelling(null);
        }}
      />
      <RescheduleDialog open={moving.open} appointment={moving.appointment} rules={moving.rules} onClose={() => setMoving((m) => ({ ...m, open: false }))} />
      {!doctor && <FollowUpDialog open={followingUp.open} consultation={followingUp.consultation} onClose={() => setFollowingUp((s) => ({ ...s, open: false }))} />}
      {doctor && <OfferTimesDialog open={offering.open} appointment={offering.appointment} onClose={() => setOffering((o) => ({ ...o, open: false }))} />}
      <Typography variant="h5" component="h1">
        {t('patient.myAppointments')}
      </Typography>
      {!doctor && <WaitlistSection />}
      <Stack component="section" spacing={2} aria-labelledby="upcoming-heading">
        <Typography id="upcoming-heading" variant="h6" component="h2">
          {t('patient.upcoming')}
        </Typography>
        {upcoming.isLoading && (
          <Box>
            <CircularProgress size={20} /> {t('patient.loadingAppointments')}
          </Box>
        )}
        {!upcoming.isLoading && (upcoming.data ?? []).length === 0 && (
          <EmptyState icon={EventAvailableOutlined} title={t('patient.noUpcomingTitle')} text={t('patient.noUpcomingText')} />
        )}
        {(upcoming.data ?? []).map((row) => (
          <UpcomingCard key={row.id} row={row} viewer={viewer} now={now} actions={actions} />
        ))}
      </Stack>
      <Stack component="section" spacing={2} aria-labelledby="past-heading">
        <Typography id="past-heading" variant="h6" component="h2">
          {t('patient.past')}
        </Typography>
        {!past.isLoading && (past.data ?? []).length === 0 && (
          <EmptyState icon={HistoryOutlined} title={t('patient.noPastTitle')} text={t('patient.noPastText')} />
        )}
        {(past.data ?? []).map((row) => {
          // A patient's completed consultation whose doctor offered a follow-up still open (issue 35).
          const followUp = !doctor && row.status === 'completed' ? openFollowUp(row.followUp, now) : null;
          const patientActions = followUp ? (
            <BookFollowUpButton offer={followUp} onBook={(offer) => setFollowingUp({ open: true, consultation: { id: row.id, doctorId: row.doctorId, doctorName: row.otherName, startAt: row.startAt, offer } })} />
          ) : undefined;
          // Ended but inside the grace after its end: the doctor may still mark the patient absent.
          return (
            <AppointmentCard
              key={row.id}
              row={row}
              viewer={viewer}
              note={!doctor && row.followUp?.booked_appointment_id ? <FollowUpBookedNote /> : undefined}
              actions={doctor ? (canMarkAbsent(row, now) ? <MarkAbsentButton row={row} actions={actions} /> : undefined) : patientActions}
            />
          );
        })}
      </Stack>
    </Stack>
  );
}
