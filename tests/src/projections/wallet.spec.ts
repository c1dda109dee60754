import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { appointmentRequested, people } from '../support/spec-events';

const wallets = projectionSpec('wallets');

/** Patients' credits (issue 36): free and held as the wallet's stream has them, and one statement line per change. */
describe('wallets projection', () => {
  it('keeps what is free and what is held through a grant, a purchase, holds, a charge, a return and an adjustment', () => {
    const patient = freshId('patient');
    const stream = `wallet-${patient}`;
    const at = '2030-01-01T09:00:00.000Z';
    const on = { stream, at };
    const opened = event('WalletOpened', { patient_id: patient, credits: 100 }, on);
    const bought = event('CreditsBought', { patient_id: patient, order_id: 'order_1', payment_id: 'pay_1', credits: 200, amount_paise: 189_900, gateway: 'local' }, on);
    const heldA = event('FeeHeld', { patient_id: patient, appointment_id: 'a-1', credits: 60 }, on);
    const heldB = event('FeeHeld', { patient_id: patient, appointment_id: 'a-2', credits: 40 }, on);
    const charged = event('FeeCharged', { patient_id: patient, appointment_id: 'a-1', credits: 60, reason: 'consultation' }, on);
    const returned = event('FeeReturned', { patient_id: patient, appointment_id: 'a-2', credits: 40, reason: 'rejected' }, on);
    const adjusted = event('CreditsAdjusted', { patient_id: patient, credits: -10, reason: 'Correction', adjusted_by: 'admin-1' }, on);
    const none = { appointment_id: null, reason: null, amount_paise: null, payment_id: null };
    return wallets
      .given(opened, bought, heldA, heldB)
      .when(charged, returned, adjusted)
      .then((log) => ({
        // 100 + 200 - 60 - 40 + 40 - 10 free; the charge moves its 60 out of held.
        wallets: [{ _id: patient, balance: 230, held: 0, updated_at: at }],
        wallet_entries: [
          { _id: opened.event_id, patient_id: patient, position: log.positionOf(opened), at, kind: 'opened', credits: 100, held_change: 0, ...none },
          { _id: bought.event_id, patient_id: patient, position: log.positionOf(bought), at, kind: 'bought', credits: 200, held_change: 0, ...none, amount_paise: 189_900, payment_id: 'pay_1' },
          { _id: heldA.event_id, patient_id: patient, position: log.positionOf(heldA), at, kind: 'held', credits: -60, held_change: 60, ...none, appointment_id: 'a-1' },
          { _id: heldB.event_id, patient_id: patient, position: log.positionOf(heldB), at, kind: 'held', credits: -40, held_change: 40, ...none, appointment_id: 'a-2' },
          { _id: charged.event_id, patient_id: patient, position: log.positionOf(charged), at, kind: 'charged', credits: 0, held_change: -60, ...none, appointment_id: 'a-1', reason: 'consultation' },
          { _id: returned.event_id, patient_id: patient, position: log.positionOf(returned), at, kind: 'returned', credits: 40, held_change: -40, ...none, appointment_id: 'a-2', reason: 'rejected' },
          { _id: adjusted.event_id, patient_id: patient, position: log.positionOf(adjusted), at, kind: 'adjusted', credits: -10, held_change: 0, ...none, reason: 'adjustment' },
        ],
      }));
  });
});

const earnings = projectionSpec('doctor_earnings');

/** Doctors' earnings (issue 36): each fee kept, under its appointment's doctor; a fee given back earns nothing. */
describe('doctor earnings projection', () => {
  it('puts each kept fee under the doctor of its appointment, with when and why it was kept', () => {
    const { patient, doctor } = people();
    const [kept, missed, returned] = [freshId('appointment'), freshId('appointment'), freshId('appointment')];
    const stream = `wallet-${patient}`;
    const requests = [kept, missed, returned].map((appointment_id) => appointmentRequested({ appointment_id, doctor_id: doctor, patient_id: patient }));
    const consultation = event('FeeCharged', { patient_id: patient, appointment_id: kept, credits: 450, reason: 'consultation' }, { stream, at: '2030-01-02T10:00:00.000Z' });
    const noShow = event('FeeCharged', { patient_id: patient, appointment_id: missed, credits: 450, reason: 'patient_no_show' }, { stream, at: '2030-01-03T10:00:00.000Z' });
    const back = event('FeeReturned', { patient_id: patient, appointment_id: returned, credits: 450, reason: 'rejected' }, { stream, at: '2030-01-03T11:00:00.000Z' });
    return earnings
      .given(...requests)
      .when(consultation, noShow, back)
      .then(() => ({
        doctor_earnings: [
          { _id: consultation.event_id, doctor_id: doctor, appointment_id: kept, at: '2030-01-02T10:00:00.000Z', rupees: 450, reason: 'consultation' },
          { _id: noShow.event_id, doctor_id: doctor, appointment_id: missed, at: '2030-01-03T10:00:00.000Z', rupees: 450, reason: 'patient_no_show' },
        ],
        fee_appointments: [kept, missed, returned].map((_id) => ({ _id, doctor_id: doctor })),
      }));
  });
});
