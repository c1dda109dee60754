import { API_TEXTS, storedInstant, type EventType, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, type CollectionSource, type ReadCollection } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { AppointmentDoc, HistoryDoc, PersonDoc } from '../projections/documents';
import { withoutUndefined } from '../users/projection';

/** The people appointments name, as they are now: readers take names, phones and fees from here (appointment-people.ts). */
export const APPOINTMENT_PEOPLE = 'appointment_people';
/** The events of an appointment's life, from its request to its end. */
export const APPOINTMENT_EVENTS = [
  'AppointmentRequested',
  'AppointmentApproved',
  'AppointmentRejected',
  'AppointmentCancelled',
  'AppointmentExpired',
  'AppointmentCompleted',
  'AppointmentRescheduled',
  'AppointmentNoShow',
  'AppointmentTimesProposed',
  'AppointmentFollowUpOffered',
  'AppointmentFollowUpBooked',
  'AppointmentFollowUpWithdrawn',
] as const satisfies EventType[];
/** The call, in the appointment's history (the chat is not: it is read through the consultation's own route). */
const CONSULTATION_HISTORY_EVENTS = [
  'ConsultationStarted',
  'ConsultationJoined',
  'ConsultationLeft',
  'ConsultationEnded',
  'ConsultationAutoEnded',
] as const satisfies EventType[];

/**
 * The clinical records of the appointment, in its history as facts only: that notes (draft or final), a prescription,
 * a prescription file or a report were recorded, by whom and when. Each keeps only the ids below (and whether notes
 * are a draft), never their health content, which is read through the records' own audited routes.
 */
const CLINICAL_HISTORY_FIELDS = {
  ConsultationNotesSaved: ['patient_id', 'doctor_id', 'is_draft'],
  PrescriptionIssued: ['prescription_id', 'patient_id', 'doctor_id'],
  PrescriptionFileUploaded: ['record_id', 'file_id', 'patient_id', 'doctor_id'],
  MedicalReportUploaded: ['report_id', 'patient_id'],
} as const satisfies Partial<Record<EventType, readonly string[]>>;
const CLINICAL_HISTORY_EVENTS = Object.keys(CLINICAL_HISTORY_FIELDS) as Array<keyof typeof CLINICAL_HISTORY_FIELDS>;

/** The event's data as the history keeps it: whole for the appointment's own events, the allowed ids for clinical ones. */
function historyData(event: RecordedEvent): Record<string, unknown> & { appointment_id: string | null } {
  const data = event.data as Record<string, unknown> & { appointment_id: string | null };
  const allowed = (CLINICAL_HISTORY_FIELDS as Partial<Record<string, readonly string[]>>)[event.type];
  if (!allowed) return data;
  return { appointment_id: data.appointment_id, ...Object.fromEntries(allowed.map((key) => [key, data[key]])) };
}

/**
 * A profile change is one person's document: the appointments keep what they were booked with and readers overlay the
 * person as they are now (appointmentPeople), so the change costs the same however many appointments the person has.
 */
function renamePerson(store: CollectionSource, userId: string, changes: Partial<PersonDoc>): Promise<void> {
  return store.collection<PersonDoc>(APPOINTMENT_PEOPLE).patch(userId, changes);
}

// Not async, as the projections' other writes: a store whose writes are done as they are called answers SETTLED, which
// the runner does not wait for (an async function's own promise it would).
// The fields come with updated_at (the event's time) in one literal: no second object spread from the first per event.
function setStatus(store: CollectionSource, event: RecordedEvent, fields: Partial<AppointmentDoc> & { updated_at: string }): Promise<void> {
  const id = (event.data as { appointment_id: string }).appointment_id;
  return store.collection<AppointmentDoc>('appointments').patch(id, fields);
}

/** Whatever answers or ends an offer of other times (a move, an end) leaves none open. */
const NO_PROPOSAL = { proposal: null, proposal_expires_at: null } as const;

/** The appointment as requested, with its people as they are now. */
function requested(event: Extract<RecordedEvent, { type: 'AppointmentRequested' }>, store: CollectionSource): Promise<void> {
  const people = store.collection<PersonDoc>(APPOINTMENT_PEOPLE);
  // Both people at once when the store answers synchronously (in memory); else one after the other, as before.
  if (people.getNow) return requestedWith(event, store, people.getNow(event.data.patient_id), people.getNow(event.data.doctor_id));
  return requestedLater(event, store, people);
}

async function requestedLater(event: Extract<RecordedEvent, { type: 'AppointmentRequested' }>, store: CollectionSource, people: ReadCollection<PersonDoc>): Promise<void> {
  const patient = await people.get(event.data.patient_id);
  const doctor = await people.get(event.data.doctor_id);
  return requestedWith(event, store, patient, doctor);
}

function requestedWith(event: Extract<RecordedEvent, { type: 'AppointmentRequested' }>, store: CollectionSource, patient: PersonDoc | null, doctor: PersonDoc | null): Promise<void> {
  const { data, metadata, position } = event;
  return store.collection<AppointmentDoc>('appointments').put({
    _id: data.appointment_id,
    appointment_id: data.appointment_id,
    slot_id: data.slot_id,
    doctor_id: data.doctor_id,
    patient_id: data.patient_id,
    // One stored format for instants, so the read stores' text comparisons are time comparisons (instants.ts).
    start: storedInstant(data.start),
    end: storedInstant(data.end),
    notes: data.notes,
    status: 'requested',
    status_reason: null,
    rejection_reason: null,
    cancellation_reason: null,
    created_at: metadata.occurred_at,
    updated_at: metadata.occurred_at,
    requested_position: position,
    consultation_held: false,
    patient_name: patient?.name ?? 'Unknown patient',
    patient_phone: patient?.phone_number ?? null,
    doctor_name: doctor?.name ?? 'Unknown doctor',
    doctor_specialty: doctor?.specialty ?? '',
    consultation_fee: data.fee ?? doctor?.consultation_fee ?? 0,
    ...NO_PROPOSAL,
    ...(data.fee === undefined ? {} : { agreed_fee: data.fee }),
    ...(data.follow_up_of ? { follow_up_of: data.follow_up_of.appointment_id, follow_up_of_start: storedInstant(data.follow_up_of.start) } : {}),
  });
}

/**
 * A follow-up closed without taking place (rejected, cancelled, expired) frees its earlier consultation's offer
 * (issue 35), as the write side decides it: the patient may book another. The one closing that reads its document.
 */
async function freeFollowUpOffer(store: CollectionSource, closing: Promise<void>, appointmentId: string): Promise<void> {
  await closing;
  const appointments = store.collection<AppointmentDoc>('appointments');
  const doc = await appointments.get(appointmentId);
  if (!doc?.follow_up_of) return;
  const earlier = await appointments.get(doc.follow_up_of);
  if (earlier?.follow_up_booked === appointmentId) await appointments.patch(doc.follow_up_of, { follow_up_booked: null });
}

export const appointmentsProjection = defineProjection({
  name: 'appointments',
  // 2: requested_position, so institutions see only appointments requested while the doctor was their member.
  // 3: a profile change no longer rewrites the person's appointments (readers overlay appointment_people).
  // 4: consultation_held (its consultation started), so a prescription's look for an earlier consultation with the
  // same doctor is one indexed find.
  // 5: a request's notes and the rejection and cancellation reasons are kept sealed (contracts' sealedInReadModels):
  // a read model built before holds them in clear, so it is rebuilt.
  // 6: a request closed because its patient withdrew consent says so (status_reason 'consent_withdrawn'), not 'declined'.
  // 7: a moved appointment (AppointmentRescheduled) takes its new slot and times, and counts its moves.
  // 8: and keeps where it was before its last move, and who moved it (the doctor's 'moved by the patient, was …'); its
  // new times in the one stored format.
  version: 8,
  collections: ['appointments', APPOINTMENT_PEOPLE],
  // No index of its own on patient_id or doctor_id: the compound indexes below begin with them and serve an equality on
  // either (SQLite, MongoDB; the in-memory store indexes a compound's first field), and every booking updated both.
  indexes: [
    // A status's appointments by start: the sweeps' pending requests, the console's list of one status.
    { collection: 'appointments', fields: ['status', 'start'] },
    // A person's list, next or newest first, costs what a page returns. The doctor's carries the status too, so a
    // doctor's list of one status is counted in the index alone. (Institutions' lists are institution_appointments.)
    { collection: 'appointments', fields: ['doctor_id', 'start', 'status'] },
    { collection: 'appointments', fields: ['patient_id', 'start'] },
    // May this doctor read this patient's records? Their appointments together, whatever the patient's history. Then
    // a held consultation and the start: the latest earlier consultation of the two (is a prescription a follow-up?).
    { collection: 'appointments', fields: ['patient_id', 'doctor_id', 'consultation_held', 'start'] },
    // Offers of other times left unanswered past their time (the sweep's); an answered or ended one is null.
    { collection: 'appointments', field: 'proposal_expires_at' },
    // The console's list of every appointment (platform admins), by start.
    { collection: 'appointments', field: 'start' },
  ],
  handles: [
    'UserRegistered',
    'UserProfileUpdated',
    'DoctorRegistered',
    'DoctorProfileUpdated',
    ...APPOINTMENT_EVENTS,
    'ConsultationStarted',
  ],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'sessions', 'UserLanguageChosen', 'privacy', 'institutions', 'schedule', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned',
    'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
    'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentHoldReleased',
    'ConsultationJoined', 'ConsultationLeft', 'ConsultationEnded', 'ConsultationAutoEnded', 'ConsultationMessagePosted', 'VideoProviderEventReceived',
  ],
  apply: (event, store) => {
    // A switch, not a pattern match: apply runs for every event of a rebuild. Only the request reads (its people).
    switch (event.type) {
      case 'UserRegistered': {
        const { data } = event;
        return store.collection<PersonDoc>(APPOINTMENT_PEOPLE).put({ _id: data.user_id, name: data.name, phone_number: data.phone_number, specialty: null, consultation_fee: null });
      }
      case 'UserProfileUpdated':
        return renamePerson(store, event.data.user_id, withoutUndefined({ name: event.data.name, phone_number: event.data.phone_number }));
      case 'DoctorRegistered':
        return store.collection<PersonDoc>(APPOINTMENT_PEOPLE).patch(event.data.doctor_id, { specialty: event.data.specialty, consultation_fee: event.data.consultation_fee });
      case 'DoctorProfileUpdated':
        return renamePerson(store, event.data.doctor_id, withoutUndefined({ specialty: event.data.specialty, consultation_fee: event.data.consultation_fee }));
      case 'AppointmentRequested':
        return requested(event, store);
      case 'AppointmentApproved':
        return setStatus(store, event, { status: 'confirmed', updated_at: event.metadata.occurred_at });
      case 'AppointmentRejected':
        return freeFollowUpOffer(store, setStatus(store, event, {
          status: 'rejected',
          // The closer's rejections before the event said why carry its reason, and the system as their actor.
          status_reason: event.data.cause ?? (event.metadata.actor.role === 'system' && event.data.reason === API_TEXTS.consentWithdrawn ? 'consent_withdrawn' : null),
          rejection_reason: event.data.reason,
          ...NO_PROPOSAL,
          updated_at: event.metadata.occurred_at,
        }), event.data.appointment_id);
      case 'AppointmentCancelled':
        return freeFollowUpOffer(store, setStatus(store, event, {
          status: 'cancelled',
          status_reason: `cancelled_by_${event.data.cancelled_by}`,
          cancellation_reason: event.data.reason,
          ...(event.data.cause ? { status_reason: event.data.cause } : {}),
          // A patient's late cancellation (issue 35) says so, and whether it counts as a no-show (the policy's count).
          ...(event.data.late ? { status_reason: event.data.late === 'no_show' ? 'late_no_show' : 'late_cancellation' } : {}),
          ...NO_PROPOSAL,
          updated_at: event.metadata.occurred_at,
        }), event.data.appointment_id);
      case 'AppointmentExpired':
        return freeFollowUpOffer(store, setStatus(store, event, { status: 'cancelled', status_reason: 'expired', ...NO_PROPOSAL, updated_at: event.metadata.occurred_at }), event.data.appointment_id);
      case 'AppointmentCompleted':
        return setStatus(store, event, { status: 'completed', status_reason: event.data.auto_ended ? 'auto_ended' : null, ...NO_PROPOSAL, updated_at: event.metadata.occurred_at });
      case 'AppointmentRescheduled': {
        const { data } = event;
        return setStatus(store, event, {
          slot_id: data.to_slot_id,
          start: storedInstant(data.start),
          end: storedInstant(data.end),
          // The patient's own moves (the rules' limit is theirs); a move recorded before the doctor could move was theirs.
          reschedules: data.patient_moves ?? data.move,
          moved_from: storedInstant(data.from_start),
          moved_by: data.rescheduled_by,
          ...(data.needs_approval ? { status: 'requested' as const } : {}),
          ...NO_PROPOSAL,
          updated_at: event.metadata.occurred_at,
        });
      }
      case 'AppointmentNoShow':
        return setStatus(store, event, { status: 'no_show', status_reason: `${event.data.absent}_absent`, ...NO_PROPOSAL, updated_at: event.metadata.occurred_at });
      case 'AppointmentTimesProposed': {
        const { slots, expires_at } = event.data;
        const proposal = { slots: slots.map((slot) => ({ slot_id: slot.slot_id, start: storedInstant(slot.start), end: storedInstant(slot.end) })), expires_at: storedInstant(expires_at) };
        return setStatus(store, event, { proposal, proposal_expires_at: proposal.expires_at, updated_at: event.metadata.occurred_at });
      }
      case 'AppointmentFollowUpOffered':
        return setStatus(store, event, { follow_up_until: storedInstant(event.data.until), follow_up_fee: event.data.fee, updated_at: event.metadata.occurred_at });
      case 'AppointmentFollowUpBooked':
        return setStatus(store, event, { follow_up_booked: event.data.follow_up_appointment_id, updated_at: event.metadata.occurred_at });
      case 'AppointmentFollowUpWithdrawn':
        return setStatus(store, event, { follow_up_until: null, follow_up_fee: null, updated_at: event.metadata.occurred_at });
      case 'ConsultationStarted':
        // Not an update of the appointment as its people see it (updated_at stays).
        return store.collection<AppointmentDoc>('appointments').patch(event.data.appointment_id, { consultation_held: true });
    }
    return SETTLED;
  },
});

/** Every event that concerns an appointment, with who did it and when: the audit trail participants can read. */
export const appointmentHistoryProjection = defineProjection({
  name: 'appointment_history',
  // 2: each entry keeps its correlation id (the console's timeline, issue 15).
  // 3: the consultation's notes, prescriptions, prescription files and reports attached to it, without their content.
  // 4: the notes and reasons in its entries are kept sealed (as in appointments, version 5).
  version: 4,
  collections: ['appointment_history'],
  indexes: [
    { collection: 'appointment_history', field: 'appointment_id' },
    // Only a request's entry names its patient: an erasure finds the patient's appointments through it.
    { collection: 'appointment_history', field: 'data.patient_id' },
  ],
  handles: ['SlotReserved', 'SlotReleased', ...APPOINTMENT_EVENTS, ...CONSULTATION_HISTORY_EVENTS, ...CLINICAL_HISTORY_EVENTS],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'accounts', 'sessions', 'privacy', 'institutions', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'AvailabilitySet', 'SlotOpened', 'SlotWithdrawn', 'SlotHeld', 'SlotHoldReleased',
    'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentHoldReleased',
    'ConsultationMessagePosted', 'VideoProviderEventReceived',
    'RecordFileStored', 'MedicineCatalogueImported',
  ],
  apply: (event, store) => {
    const data = historyData(event);
    // A report the patient uploaded for no appointment is in no appointment's history.
    if (data.appointment_id === null) return SETTLED;
    return store.collection<HistoryDoc>('appointment_history').put({
      _id: event.event_id,
      appointment_id: data.appointment_id,
      position: event.position,
      event_id: event.event_id,
      type: event.type,
      occurred_at: event.metadata.occurred_at,
      actor: { user_id: event.metadata.actor.user_id, role: event.metadata.actor.role },
      correlation_id: event.metadata.correlation_id,
      data,
    });
  },
});
