import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';

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
