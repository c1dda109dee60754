import { P, match } from 'ts-pattern';
import {
  API_TEXTS,
  CONSENT_TEXTS,
  ERROR_CODES,
  NO_SHOW_DOCTOR_WAIT_MINUTES,
  NO_SHOW_GRACE_MINUTES,
  FOLLOW_UP_LIMITS,
  conflict,
  followUpUntil,
  invalid,
  notFound,
  type BookingRules,
  type DomainEventOf,
  type EventData,
} from '@telemed/contracts';
import type { Decider } from '../decider';

export type AppointmentEvent = DomainEventOf<
    | 'AppointmentRequested'
  | 'AppointmentApproved'
  | 'AppointmentRejected'
  | 'AppointmentCancelled'
  | 'AppointmentExpired'
  | 'AppointmentVoided'
  | 'AppointmentConsultationBegun'
  | 'AppointmentCompleted'
  | 'AppointmentRescheduled'
  | 'AppointmentHoldReleased'
  | 'AppointmentNoShow'
  | 'AppointmentTimesProposed'
  | 'AppointmentFollowUpOffered'
  | 'AppointmentFollowUpBooked'
  | 'AppointmentFollowUpWithdrawn'
>;

/** What the appointment's decisions need: the request without its notes. */
export type AppointmentDetails = Omit<EventData<'AppointmentRequested'>, 'notes'>;

export type AppointmentState =
  /** `voided`: its slot's reservation was released before any request was recorded (AppointmentVoided). */
  | { status: 'none'; voided?: boolean }
  | {
      status: 'requested' | 'confirmed' | 'rejected' | 'cancelled' | 'expired' | 'completed' | 'no_show';
      appointment: AppointmentDetails;
      /** Its consultation has begun (AppointmentConsultationBegun): the closers leave it to its consultation. */
      consultation_begun: boolean;
      /** How many times it was moved (AppointmentRescheduled). */
      reschedules: number;
      /** How many of those moves its patient made (the rules' limit counts only theirs). */
      patient_moves: number;
      /** Other times its doctor offered, not yet answered (AppointmentTimesProposed); null when none. */
      proposal: Proposal | null;
      /** Slots held to move it that were given up (AppointmentHoldReleased): a move onto one is refused. */
      released_holds: readonly number[];
      /** The follow-up its doctor offered (AppointmentFollowUpOffered), and the one booked on it; null when none. */
      follow_up: FollowUpOffer | null;
    };

/** A follow-up offered after a consultation (issue 35): before when, at what fee, and the appointment booked on it. */
export interface FollowUpOffer {
  within_days: number;
  until: string;
  fee: number;
  /** The follow-up booked on it (AppointmentFollowUpBooked), or null. */
  booked: string | null;
}

/** Other times a doctor offered for an appointment, until when. */
export interface Proposal {
  slots: ReadonlyArray<{ slot_id: number; start: string; end: string }>;
  expires_at: string;
}

/** The slot an appointment moves to, as its stream says. */
export interface MoveTarget {
  slot_id: number;
  doctor_id: string;
  start: string;
  end: string;
}

export type AppointmentCommand =
  | { type: 'RequestAppointment'; data: AppointmentDetails & { notes: string } }
  /** `patient_consents`: the patient still holds a consent to the current notice (approving opens their records). */
  | { type: 'ApproveAppointment'; data: { actor_id: string; now: Date; patient_consents: boolean } }
  | { type: 'RejectAppointment'; data: { actor_id: string; reason: string | null } }
  /**
   * Its patient or doctor cancels it: only before its consultation has begun (then it ends with the call, completed).
   * `consultation_begun`: the consultation's own stream has started (consultations begun before the appointment
   * recorded AppointmentConsultationBegun have only that); the appointment's own record is what a racing join and
   * this cancel are decided on.
   */
  | {
      type: 'CancelAppointment';
      /** `rules`: the doctor's rules in effect (a patient's cancellation of a confirmed appointment inside the notice is late). */
      data: { actor_id: string; reason: string | null; now: Date; consultation_begun: boolean; rules: Pick<BookingRules, 'minNoticeMinutes' | 'lateCancellation'> };
    }
  | { type: 'ExpireAppointment'; data: { now: Date } }
  /** Its patient withdrew their consent: a request still waiting is declined by the system (it could not be approved). */
  | { type: 'CloseForWithdrawnConsent'; data: { reason: string; now: Date } }
  /** The reservation healer is about to release this id's slot: only while no request has been recorded. */
  | { type: 'VoidUnrequestedAppointment'; data: { appointment_id: string; slot_id: number } }
  /**
   * A join is about to start the appointment's consultation: recorded on a confirmed appointment (once), so the join
   * and a closer's cancel are decided on the same stream. Anything else records nothing; the join's own rules then
   * refuse it on the state this leaves.
   */
  | { type: 'RecordConsultationBegun'; data: { now: Date } }
  /**
   * The doctor takes no bookings any more (deactivated by an institution or as an account): a request not yet started
   * is rejected and a confirmed appointment not yet started is cancelled, on the doctor's side, with this reason.
   * Anything else (left to its consultation, ended, closed) is left as it is. `consultation_begun`: its consultation's
   * stream has started (someone joined, perhaps before the start time; consultations begun before the appointment
   * recorded it have only that).
   */
  | { type: 'CloseForUnavailableDoctor'; data: { reason: string; now: Date; consultation_begun: boolean } }
  /**
   * The patient's account is closed (erased or deactivated): an appointment not yet started (requested or confirmed) is
   * cancelled in the patient's name without a reason (a reason would be the person's data). Anything else (left to its
   * consultation, ended, closed) is left as it is; never refused.
   */
  | { type: 'CloseForClosedPatient'; data: { now: Date; consultation_begun: boolean } }
  /**
   * Its consultation ended (by a participant or at the limit): the visit took place if both parties joined it. One a
   * party never joined is left confirmed for the no-show sweep (CloseNoShow) to close once its grace has passed.
   */
  | { type: 'CompleteAppointment'; data: { ended_at: string; auto_ended: boolean; joined: Joined } }
  /**
   * Its patient moves it to `to`, a slot already reserved for it (issue 35): only while requested or confirmed, its
   * consultation not begun, at least `rules.minNoticeMinutes` before its current start, and fewer than
   * `rules.maxReschedules` times before. A confirmed one then waits for the doctor again unless `auto_accept`.
   */
  | {
      type: 'RescheduleAppointment';
      /** `to`: null when no such slot exists (refused after the appointment's own checks: a stranger learns nothing). */
      data: { actor_id: string; to: MoveTarget | null; now: Date; consultation_begun: boolean; rules: BookingRules; auto_accept: boolean };
    }
  /** The reservation healer is about to release `slot_id`, held for this appointment: only if it did not move there. */
  | { type: 'ReleaseUnusedHold'; data: { slot_id: number } }
  /**
   * Its doctor offers up to three other times (issue 35): `slots` as their streams have them (null: no such slot),
   * each `open` or not. Only while requested or confirmed, before its start and its consultation; a new offer
   * replaces an earlier one.
   */
  | {
      type: 'ProposeTimes';
      data: { actor_id: string; slots: ReadonlyArray<(MoveTarget & { open: boolean }) | null>; now: Date; consultation_begun: boolean };
    }
  /** Its patient takes one of the offered times, already reserved for it (`to`): moved by the doctor, and confirmed. */
  | { type: 'AcceptProposedTime'; data: { actor_id: string; to: MoveTarget | null; now: Date; consultation_begun: boolean } }
  /** Its patient declines the offered times: it is cancelled, the doctor's change (cause proposal_declined). */
  | { type: 'DeclineProposedTimes'; data: { actor_id: string } }
  /** The system closes an offer left unanswered past its time: cancelled on the doctor's side (proposal_unanswered). */
  | { type: 'CloseUnansweredProposal'; data: { now: Date } }
  /**
   * The system closes a confirmed appointment nobody (or only one party) came to, once its end and the grace have
   * passed (no join is accepted after the end, so `joined`, read from its consultation then, is final). One both
   * parties joined is left to its consultation, whose end completes it.
   */
  | { type: 'CloseNoShow'; data: { now: Date; joined: Joined } }
  /**
   * Its doctor marks the patient absent: only a confirmed appointment, once NO_SHOW_DOCTOR_WAIT_MINUTES of it have
   * passed and before the system's grace ends, the patient never having joined its consultation.
   */
  | { type: 'MarkPatientAbsent'; data: { actor_id: string; now: Date; joined: Joined } }
  /**
   * Its doctor saved final notes saying a follow-up is required (issue 35): offered within `within_days` of its end at
   * `fee` (each left out keeps an earlier offer's, else the defaults). Only on a consultation that took place or is under
   * way; on any other appointment, or the same offer again, nothing is recorded. `doctor_fee` caps the fee.
   */
  | { type: 'OfferFollowUp'; data: { actor_id: string; within_days?: number; fee?: number; doctor_fee: number } }
  /**
   * Its patient books a follow-up on its offer (issue 35): `follow_up_appointment_id` is the new appointment, `to` the
   * slot (null: no such slot). Only a completed consultation of theirs with an offer, a slot of the same doctor starting
   * before the offer's end, and no follow-up already standing on it: `lapsed` is the earlier booking found closed without
   * taking place (read from its stream), which frees the offer.
   */
  | { type: 'BookFollowUp'; data: { actor_id: string; follow_up_appointment_id: string; to: MoveTarget | null; lapsed: string | null } }
  /** Its doctor's final notes now say no follow-up is required: an offer not yet booked is withdrawn; otherwise nothing. */
  | { type: 'WithdrawFollowUp'; data: { actor_id: string } };

/** Who has ever joined the appointment's consultation (from its stream). */
export interface Joined {
  patient: boolean;
  doctor: boolean;
}

export function evolveAppointment(state: AppointmentState, event: AppointmentEvent): AppointmentState {
  if (event.type === 'AppointmentRequested') {
    const { notes: _notes, ...appointment } = event.data;
    void _notes;
    return { status: 'requested', appointment, consultation_begun: false, reschedules: 0, patient_moves: 0, proposal: null, released_holds: [], follow_up: null };
  }
  if (event.type === 'AppointmentVoided') return state.status === 'none' ? { status: 'none', voided: true } : state;
  if (state.status === 'none') return state;
  return match(event)
    .with({ type: 'AppointmentApproved' }, (): AppointmentState => ({ ...state, status: 'confirmed' }))
    .with({ type: 'AppointmentRejected' }, (): AppointmentState => ({ ...state, status: 'rejected' }))
    .with({ type: 'AppointmentCancelled' }, (): AppointmentState => ({ ...state, status: 'cancelled' }))
    .with({ type: 'AppointmentExpired' }, (): AppointmentState => ({ ...state, status: 'expired' }))
    .with({ type: 'AppointmentConsultationBegun' }, (): AppointmentState => ({ ...state, consultation_begun: true }))
    .with({ type: 'AppointmentCompleted' }, (): AppointmentState => ({ ...state, status: 'completed' }))
    .with({ type: 'AppointmentRescheduled' }, ({ data }): AppointmentState => ({
      ...state,
      status: data.needs_approval ? 'requested' : state.status,
      appointment: { ...state.appointment, slot_id: data.to_slot_id, start: data.start, end: data.end },
      reschedules: data.move,
      patient_moves: data.patient_moves ?? state.patient_moves + (data.rescheduled_by === 'patient' ? 1 : 0),
      proposal: null,
    }))
    .with({ type: 'AppointmentHoldReleased' }, ({ data }): AppointmentState => ({ ...state, released_holds: [...state.released_holds, data.slot_id] }))
    .with({ type: 'AppointmentNoShow' }, (): AppointmentState => ({ ...state, status: 'no_show' }))
    .with({ type: 'AppointmentTimesProposed' }, ({ data }): AppointmentState => ({ ...state, proposal: { slots: data.slots, expires_at: data.expires_at } }))
    .with({ type: 'AppointmentFollowUpOffered' }, ({ data }): AppointmentState => ({
      ...state,
      follow_up: { within_days: data.within_days, until: data.until, fee: data.fee, booked: state.follow_up?.booked ?? null },
    }))
    .with({ type: 'AppointmentFollowUpBooked' }, ({ data }): AppointmentState =>
      state.follow_up ? { ...state, follow_up: { ...state.follow_up, booked: data.follow_up_appointment_id } } : state,
    )
    .with({ type: 'AppointmentFollowUpWithdrawn' }, (): AppointmentState => ({ ...state, follow_up: null }))
    .exhaustive();
}

/**
 * Closing an account or a doctor leaves an appointment to its consultation once its start time has come or its
 * consultation has begun (joined early, CONSULTATION_EARLY_JOIN_MINUTES): the call goes on, the doctor's notes and prescription need the
 * appointment confirmed, and the consultation's end completes it. A request whose time has come is the expiry sweep's.
 * The one rule for both closers (CloseForUnavailableDoctor, CloseForClosedPatient). `consultationBegun` must include the
 * appointment's own AppointmentConsultationBegun: only that is decided against the revision the cancel is appended at.
 */
export function leftToItsConsultation(appointment: Pick<AppointmentDetails, 'start'>, now: Date, consultationBegun: boolean): boolean {
  return consultationBegun || new Date(appointment.start).getTime() <= now.getTime();
}

/** A request recorded after the healer gave its slot up (it took longer than the grace): the patient may book again. */
export const REQUEST_VOIDED = 'This request took too long to be recorded and was not kept. Please try again.';

const describe = (status: string) => (status === 'no_show' ? 'closed as a no-show' : status);

const minutes = (n: number) => n * 60_000;

/** A follow-up window's end as a refusal names it: its UTC date and time to the minute. */
const windowEnd = (until: string) => `${until.slice(0, 10)} ${until.slice(11, 16)} UTC`;

/** Who was absent, from who joined; null when both came (the consultation's end completes it). */
function absentOf(joined: Joined): EventData<'AppointmentNoShow'>['absent'] | null {
  if (joined.patient && joined.doctor) return null;
  if (joined.patient) return 'doctor';
  return joined.doctor ? 'patient' : 'both';
}

/** Someone else's appointment answers as if it did not exist. */
function ownedByDoctor(state: AppointmentState, actorId: string) {
  if (state.status === 'none' || state.appointment.doctor_id !== actorId) throw notFound(API_TEXTS.appointmentNotFound);
  return state;
}

/** What every move records of where the appointment was and where it goes. */
function moveOf(appointment: AppointmentDetails, to: MoveTarget) {
  const { appointment_id, doctor_id, patient_id } = appointment;
  return { appointment_id, doctor_id, patient_id, from_slot_id: appointment.slot_id, from_start: appointment.start, to_slot_id: to.slot_id, start: to.start, end: to.end };
}

/** Its patient's appointment; anyone else's answers as if it did not exist. */
function ownedByPatient(state: AppointmentState, actorId: string) {
  if (state.status === 'none' || state.appointment.patient_id !== actorId) throw notFound(API_TEXTS.appointmentNotFound);
  return state;
}

/** The offer of other times still open to an answer. */
function openProposal(state: Exclude<AppointmentState, { status: 'none' }>, now: Date): Proposal {
  if (!state.proposal || (state.status !== 'requested' && state.status !== 'confirmed')) throw conflict(API_TEXTS.proposalNone);
  if (new Date(state.proposal.expires_at).getTime() <= now.getTime()) throw conflict(API_TEXTS.proposalExpired);
  return state.proposal;
}

/** Moving an appointment (issue 35): the patient's reschedule, the doctor's offer of other times and its answers, a move's hold given up. */
type MoveCommand = Extract<AppointmentCommand, { type: 'RescheduleAppointment' | 'ReleaseUnusedHold' | 'ProposeTimes' | 'AcceptProposedTime' | 'DeclineProposedTimes' | 'CloseUnansweredProposal' }>;

function decideMove(command: MoveCommand, state: AppointmentState): AppointmentEvent[] {
  return match(command)
      .with({ type: 'RescheduleAppointment' }, ({ data }): AppointmentEvent[] => {
        if (state.status === 'none' || state.appointment.patient_id !== data.actor_id) throw notFound(API_TEXTS.appointmentNotFound);
        const { appointment } = state;
        if (!data.to) throw notFound(API_TEXTS.slotNotFound);
        // The same move decided again (a retry after its append raced another write) records nothing more.
        if (appointment.slot_id === data.to.slot_id) {
          if (state.reschedules > 0) return [];
          throw conflict(API_TEXTS.rescheduleSameSlot);
        }
        if (state.status !== 'requested' && state.status !== 'confirmed') throw conflict(API_TEXTS.appointmentNotMovable(describe(state.status)));
        if (state.consultation_begun || data.consultation_begun) throw conflict(API_TEXTS.consultationBegunNoMove);
        if (data.to.doctor_id !== appointment.doctor_id) throw conflict(API_TEXTS.rescheduleOtherDoctor);
        if (state.released_holds.includes(data.to.slot_id)) throw conflict(API_TEXTS.rescheduleHoldLost);
        if (new Date(appointment.start).getTime() - data.now.getTime() < data.rules.minNoticeMinutes * 60_000) {
          throw conflict(API_TEXTS.rescheduleTooLate(String(data.rules.minNoticeMinutes / 60)));
        }
        if (state.patient_moves >= data.rules.maxReschedules) throw conflict(API_TEXTS.rescheduleLimit(String(data.rules.maxReschedules)));
        return [
          {
            type: 'AppointmentRescheduled',
            data: {
              ...moveOf(appointment, data.to),
              rescheduled_by: 'patient',
              needs_approval: state.status === 'confirmed' && !data.auto_accept,
              move: state.reschedules + 1,
              patient_moves: state.patient_moves + 1,
              confirmed: state.status === 'confirmed' && data.auto_accept,
            },
          },
        ];
      })
      .with({ type: 'ReleaseUnusedHold' }, ({ data }): AppointmentEvent[] => {
        if (state.status === 'none' || state.appointment.slot_id === data.slot_id || state.released_holds.includes(data.slot_id)) return [];
        return [{ type: 'AppointmentHoldReleased', data: { appointment_id: state.appointment.appointment_id, slot_id: data.slot_id } }];
      })
      .with({ type: 'ProposeTimes' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        const { appointment } = current;
        if (current.status !== 'requested' && current.status !== 'confirmed') throw conflict(API_TEXTS.appointmentNotMovable(describe(current.status)));
        if (current.consultation_begun || data.consultation_begun || new Date(appointment.start).getTime() <= data.now.getTime()) {
          throw conflict(API_TEXTS.consultationBegunNoMove);
        }
        const slots = data.slots.map((slot) => {
          if (!slot) throw notFound(API_TEXTS.slotNotFound);
          if (slot.slot_id === appointment.slot_id) throw conflict(API_TEXTS.proposeSameSlot);
          if (slot.doctor_id !== appointment.doctor_id || !slot.open || new Date(slot.start).getTime() <= data.now.getTime()) throw conflict(API_TEXTS.proposeNotOpen);
          return { slot_id: slot.slot_id, start: slot.start, end: slot.end };
        });
        const earliest = Math.min(new Date(appointment.start).getTime(), ...slots.map((slot) => new Date(slot.start).getTime()));
        return [
          {
            type: 'AppointmentTimesProposed',
            data: { appointment_id: appointment.appointment_id, doctor_id: appointment.doctor_id, patient_id: appointment.patient_id, slots, expires_at: new Date(earliest).toISOString() },
          },
        ];
      })
      .with({ type: 'AcceptProposedTime' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByPatient(state, data.actor_id);
        const { appointment } = current;
        // The same acceptance decided again (a retry after its append raced another write) records nothing more.
        if (data.to && appointment.slot_id === data.to.slot_id && !current.proposal) return [];
        const proposal = openProposal(current, data.now);
        if (!data.to || !proposal.slots.some((slot) => slot.slot_id === data.to?.slot_id)) throw conflict(API_TEXTS.proposalSlotNotOffered);
        if (current.consultation_begun || data.consultation_begun) throw conflict(API_TEXTS.consultationBegunNoMove);
        if (current.released_holds.includes(data.to.slot_id)) throw conflict(API_TEXTS.rescheduleHoldLost);
        const moved: AppointmentEvent = {
          type: 'AppointmentRescheduled',
          data: {
            ...moveOf(appointment, data.to),
            rescheduled_by: 'doctor',
            needs_approval: false,
            move: current.reschedules + 1,
            patient_moves: current.patient_moves,
            confirmed: true,
          },
        };
        // The doctor offered this time: a request taken up at it is confirmed.
        if (current.status === 'confirmed') return [moved];
        return [moved, { type: 'AppointmentApproved', data: { appointment_id: appointment.appointment_id, doctor_id: appointment.doctor_id } }];
      })
      .with({ type: 'DeclineProposedTimes' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByPatient(state, data.actor_id);
        if (current.status === 'cancelled') return [];
        if (!current.proposal || (current.status !== 'requested' && current.status !== 'confirmed')) throw conflict(API_TEXTS.proposalNone);
        return [{ type: 'AppointmentCancelled', data: { appointment_id: current.appointment.appointment_id, cancelled_by: 'patient', reason: null, cause: 'proposal_declined' } }];
      })
      .with({ type: 'CloseUnansweredProposal' }, ({ data }): AppointmentEvent[] => {
        if (state.status !== 'requested' && state.status !== 'confirmed') return [];
        if (!state.proposal || new Date(state.proposal.expires_at).getTime() > data.now.getTime()) return [];
        return [{ type: 'AppointmentCancelled', data: { appointment_id: state.appointment.appointment_id, cancelled_by: 'doctor', reason: null, cause: 'proposal_unanswered' } }];
      })
    .exhaustive();
}

/** Who came (no-shows) and what follows (a follow-up offered, booked or withdrawn): issue 35. */
type AttendanceCommand = Extract<AppointmentCommand, { type: 'CloseNoShow' | 'MarkPatientAbsent' | 'OfferFollowUp' | 'BookFollowUp' | 'WithdrawFollowUp' }>;

function decideAttendance(command: AttendanceCommand, state: AppointmentState): AppointmentEvent[] {
  return match(command)
      .with({ type: 'CloseNoShow' }, ({ data }): AppointmentEvent[] => {
        if (state.status !== 'confirmed') return [];
        if (new Date(state.appointment.end).getTime() + minutes(NO_SHOW_GRACE_MINUTES) > data.now.getTime()) return [];
        const absent = absentOf(data.joined);
        if (!absent) return [];
        const { appointment_id, doctor_id, patient_id } = state.appointment;
        return [{ type: 'AppointmentNoShow', data: { appointment_id, doctor_id, patient_id, absent, marked_by: 'system' } }];
      })
      .with({ type: 'MarkPatientAbsent' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        if (current.status === 'no_show') return [];
        if (current.status !== 'confirmed') throw conflict(API_TEXTS.noShowNotConfirmed(describe(current.status)));
        const { appointment_id, doctor_id, patient_id, start, end } = current.appointment;
        const now = data.now.getTime();
        if (now < new Date(start).getTime() + minutes(NO_SHOW_DOCTOR_WAIT_MINUTES)) {
          throw conflict(API_TEXTS.noShowTooEarly(String(NO_SHOW_DOCTOR_WAIT_MINUTES)));
        }
        if (now >= new Date(end).getTime() + minutes(NO_SHOW_GRACE_MINUTES)) throw conflict(API_TEXTS.noShowTooLate);
        if (data.joined.patient) throw conflict(API_TEXTS.noShowPatientJoined);
        return [{ type: 'AppointmentNoShow', data: { appointment_id, doctor_id, patient_id, absent: 'patient', marked_by: 'doctor' } }];
      })
      .with({ type: 'OfferFollowUp' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        const tookPlace = current.status === 'completed' || (current.status === 'confirmed' && current.consultation_begun);
        if (!tookPlace) return [];
        const within_days = data.within_days ?? current.follow_up?.within_days ?? FOLLOW_UP_LIMITS.defaultDays;
        const fee = data.fee ?? current.follow_up?.fee ?? FOLLOW_UP_LIMITS.defaultFee;
        if (data.fee !== undefined && data.fee > data.doctor_fee) throw invalid(API_TEXTS.followUpFeeTooHigh(String(data.doctor_fee)));
        if (current.follow_up && current.follow_up.within_days === within_days && current.follow_up.fee === fee) return [];
        const { appointment_id, doctor_id, patient_id, end } = current.appointment;
        return [{ type: 'AppointmentFollowUpOffered', data: { appointment_id, doctor_id, patient_id, within_days, until: followUpUntil(end, within_days), fee } }];
      })
      .with({ type: 'BookFollowUp' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByPatient(state, data.actor_id);
        const offer = current.follow_up;
        // The same booking decided again (a retry after its append raced another write) records nothing more.
        if (offer?.booked === data.follow_up_appointment_id) return [];
        if (current.status !== 'completed') throw conflict(API_TEXTS.followUpNotCompleted);
        if (!offer) throw conflict(API_TEXTS.followUpNotOffered);
        if (!data.to) throw notFound(API_TEXTS.slotNotFound);
        if (data.to.doctor_id !== current.appointment.doctor_id) throw conflict(API_TEXTS.followUpOtherDoctor);
        if (new Date(data.to.start).getTime() >= new Date(offer.until).getTime()) throw conflict(API_TEXTS.followUpOutsideWindow(windowEnd(offer.until)));
        if (offer.booked !== null && offer.booked !== data.lapsed) throw conflict(API_TEXTS.followUpAlreadyBooked);
        return [
          {
            type: 'AppointmentFollowUpBooked',
            data: { appointment_id: current.appointment.appointment_id, follow_up_appointment_id: data.follow_up_appointment_id, slot_id: data.to.slot_id },
          },
        ];
      })
      .with({ type: 'WithdrawFollowUp' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        if (!current.follow_up || current.follow_up.booked !== null) return [];
        const { appointment_id, doctor_id, patient_id } = current.appointment;
        return [{ type: 'AppointmentFollowUpWithdrawn', data: { appointment_id, doctor_id, patient_id } }];
      })
    .exhaustive();
}
export const appointmentDecider: Decider<AppointmentState, AppointmentCommand, AppointmentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveAppointment,
  // Reasons given to the patient (rejection, cancellation) are theirs: encrypted under the patient's key.
  parties: (state) => (state.status === 'none' ? {} : { patient: state.appointment.patient_id }),
  decide: (command, state) =>
    match(command)
      .with({ type: 'RequestAppointment' }, ({ data }): AppointmentEvent[] => {
        if (state.status !== 'none') throw conflict('This appointment already exists');
        if (state.voided) throw conflict(REQUEST_VOIDED);
        return [{ type: 'AppointmentRequested', data }];
      })
      .with({ type: 'ApproveAppointment' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        if (current.status === 'confirmed') return [];
        if (current.status !== 'requested') throw conflict(`This appointment is ${describe(current.status)} and cannot be approved`);
        if (new Date(current.appointment.start).getTime() <= data.now.getTime()) {
          throw conflict('This request has expired: its time has passed');
        }
        if (!data.patient_consents) throw conflict(CONSENT_TEXTS.patientWithdrew);
        return [{ type: 'AppointmentApproved', data: { appointment_id: current.appointment.appointment_id, doctor_id: data.actor_id } }];
      })
      .with({ type: 'RejectAppointment' }, ({ data }): AppointmentEvent[] => {
        const current = ownedByDoctor(state, data.actor_id);
        if (current.status === 'rejected') return [];
        if (current.status !== 'requested') throw conflict(`This appointment is ${describe(current.status)} and cannot be rejected`);
        return [
          {
            type: 'AppointmentRejected',
            data: { appointment_id: current.appointment.appointment_id, doctor_id: data.actor_id, reason: data.reason },
          },
        ];
      })
      .with({ type: 'CancelAppointment' }, ({ data }): AppointmentEvent[] => {
        if (state.status === 'none') throw notFound(API_TEXTS.appointmentNotFound);
        const { doctor_id, patient_id, appointment_id, end } = state.appointment;
        const cancelled_by = data.actor_id === patient_id ? 'patient' : data.actor_id === doctor_id ? 'doctor' : null;
        if (!cancelled_by) throw notFound(API_TEXTS.appointmentNotFound);
        if (state.status === 'cancelled') return [];
        if (state.status !== 'requested' && state.status !== 'confirmed') {
          throw conflict(`This appointment is ${describe(state.status)} and cannot be cancelled`);
        }
        // The call is under way (or took place): cancelling would free the slot for someone else and close the doctor's
        // records of a consultation that happened. It ends as completed when the call ends (End Call or the limit).
        if (state.consultation_begun || data.consultation_begun) throw conflict(API_TEXTS.consultationBegunNoCancel, ERROR_CODES.consultationBegun);
        if (new Date(end).getTime() <= data.now.getTime()) throw conflict('This appointment has already ended');
        const late = cancelled_by === 'patient' && state.status === 'confirmed' && new Date(state.appointment.start).getTime() - data.now.getTime() < data.rules.minNoticeMinutes * 60_000;
        return [{ type: 'AppointmentCancelled', data: { appointment_id, cancelled_by, reason: data.reason, ...(late ? { late: data.rules.lateCancellation } : {}) } }];
      })
      .with({ type: 'VoidUnrequestedAppointment' }, ({ data }): AppointmentEvent[] =>
        state.status === 'none' && !state.voided ? [{ type: 'AppointmentVoided', data: { appointment_id: data.appointment_id, slot_id: data.slot_id } }] : [],
      )
      .with({ type: 'ExpireAppointment' }, ({ data }): AppointmentEvent[] =>
        state.status === 'requested' && new Date(state.appointment.start).getTime() <= data.now.getTime()
          ? [{ type: 'AppointmentExpired', data: { appointment_id: state.appointment.appointment_id } }]
          : [],
      )
      .with({ type: 'RecordConsultationBegun' }, ({ data }): AppointmentEvent[] =>
        state.status === 'confirmed' && !state.consultation_begun
          ? [{ type: 'AppointmentConsultationBegun', data: { appointment_id: state.appointment.appointment_id, begun_at: data.now.toISOString() } }]
          : [],
      )
      .with({ type: 'CloseForUnavailableDoctor' }, ({ data }): AppointmentEvent[] => {
        if (state.status === 'none' || leftToItsConsultation(state.appointment, data.now, data.consultation_begun || state.consultation_begun)) return [];
        const { appointment_id, doctor_id } = state.appointment;
        if (state.status === 'requested') return [{ type: 'AppointmentRejected', data: { appointment_id, doctor_id, reason: data.reason } }];
        if (state.status === 'confirmed') return [{ type: 'AppointmentCancelled', data: { appointment_id, cancelled_by: 'doctor', reason: data.reason } }];
        return [];
      })
      .with({ type: 'CloseForWithdrawnConsent' }, ({ data }): AppointmentEvent[] => {
        if (state.status !== 'requested' || new Date(state.appointment.start).getTime() <= data.now.getTime()) return [];
        const { appointment_id, doctor_id } = state.appointment;
        return [{ type: 'AppointmentRejected', data: { appointment_id, doctor_id, reason: data.reason, cause: 'consent_withdrawn' } }];
      })
      .with({ type: 'CloseForClosedPatient' }, ({ data }): AppointmentEvent[] => {
        if (state.status !== 'requested' && state.status !== 'confirmed') return [];
        if (leftToItsConsultation(state.appointment, data.now, data.consultation_begun || state.consultation_begun)) return [];
        return [{ type: 'AppointmentCancelled', data: { appointment_id: state.appointment.appointment_id, cancelled_by: 'patient', reason: null } }];
      })
      .with({ type: P.union('RescheduleAppointment', 'ReleaseUnusedHold', 'ProposeTimes', 'AcceptProposedTime', 'DeclineProposedTimes', 'CloseUnansweredProposal') }, (moving): AppointmentEvent[] => decideMove(moving, state))
      .with({ type: P.union('CloseNoShow', 'MarkPatientAbsent', 'OfferFollowUp', 'BookFollowUp', 'WithdrawFollowUp') }, (other): AppointmentEvent[] => decideAttendance(other, state))
      .with({ type: 'CompleteAppointment' }, ({ data }): AppointmentEvent[] =>
        state.status === 'confirmed' && data.joined.patient && data.joined.doctor
          ? [{ type: 'AppointmentCompleted', data: { appointment_id: state.appointment.appointment_id, ended_at: data.ended_at, auto_ended: data.auto_ended } }]
          : [],
      )
      .exhaustive(),
};
