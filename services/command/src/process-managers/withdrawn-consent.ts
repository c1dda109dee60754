import { API_TEXTS, streams } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { consentIsCurrent } from '../consents/service';
import { forEachPage, SWEEP_PAGE_SIZE, whileStill } from './pages';
import { startProcessManager } from './subscriber';
import { READ_MODEL_WAIT_MS, type AccountLookups, type OpenAppointmentRef } from './lookups';

interface WithdrawnConsentDeps {
  eventStore: EventStore;
  lookups: Pick<AccountLookups, 'openAppointmentsOf' | 'appointmentsReached'>;
  clock: () => Date;
  checkpoints: CheckpointStore;
  logger: Logger;
  pageSize?: number;
}

/**
 * A patient who withdraws their consent (DPDP Act §6(6): processing stops) leaves no request of theirs waiting on a
 * doctor: approving one needs a current consent, so each request not yet answered and not yet started is declined by
 * the system with the reason 'Consent to the privacy notice was withdrawn' (the slot releaser frees its slot, the
 * notifier tells both as for any rejection). Confirmed appointments are the patient's to keep or cancel. Acted on only
 * while the withdrawal still holds (asked before each page: agreeing again stops it), through the indexed query of the
 * patient's open appointments, a page at a time. Idempotent: an answered or closed request records nothing.
 */
export function startWithdrawnConsentCloser(deps: WithdrawnConsentDeps) {
  return startProcessManager({
    name: 'withdrawn-consent-closer',
    ...deps,
    handles: ['ConsentWithdrawn'],
    ignores: [
      'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'ConsentGiven', 'PersonalDataAccessed', 'PersonalDataErased', 'ClinicalRecordsDestroyed',
    ],
    handle: async (event) => {
      const { user_id } = event.data;
      const holds = async () => !(await consentIsCurrent(deps.eventStore, user_id));
      if (!(await holds())) return;
      const reached = (await deps.lookups.appointmentsReached?.(event.position, READ_MODEL_WAIT_MS)) ?? true;
      if (!reached) deps.logger.warn({ processManager: 'withdrawn-consent-closer', position: event.position }, 'appointments read model behind; closing what it shows');
      const now = deps.clock();
      const context = systemContext(now, event.event_id, event.metadata.correlation_id);
      await forEachPage<OpenAppointmentRef>(
        whileStill(holds, (after, limit) => deps.lookups.openAppointmentsOf('patient', user_id, now, { after, limit })),
        deps.pageSize ?? SWEEP_PAGE_SIZE,
        async (appointment) => {
          await handleCommand(deps.eventStore, streams.appointment(appointment.appointment_id), appointmentDecider, { type: 'CloseForWithdrawnConsent', data: { reason: API_TEXTS.consentWithdrawn, now } }, context);
        },
      );
    },
  });
}
