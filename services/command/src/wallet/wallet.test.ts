import { describe, it } from 'node:test';
import { STARTING_CREDITS, WALLET_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { walletDecider, type WalletEvent } from './wallet';

const spec = deciderSpec(walletDecider);
const patient_id = 'pat-1';
const opened: WalletEvent = { type: 'WalletOpened', data: { patient_id, credits: STARTING_CREDITS } };
const held = (appointment_id: string, credits: number): WalletEvent => ({ type: 'FeeHeld', data: { patient_id, appointment_id, credits } });
const hold = (appointment_id: string, credits: number) => ({ type: 'HoldFee' as const, data: { patient_id, appointment_id, credits } });
const purchase = { patient_id, order_id: 'order_1', payment_id: 'pay_1', credits: 200, amount_paise: 189_900, gateway: 'local' };

describe("a patient's wallet (issue 36)", () => {
  it('opens with the starting grant at its first change, and holds a fee the balance covers', () => {
    spec([]).when(hold('a-1', 60)).then([opened, held('a-1', 60)]);
    spec([opened, held('a-1', 60)]).when(hold('a-2', 40)).then([held('a-2', 40)]);
  });

  it('refuses a fee the balance does not cover (402, saying both), counting what is held already', () => {
    spec([opened, held('a-1', 60)]).when(hold('a-2', 41)).thenThrows('payment_required', WALLET_TEXTS.insufficientCredits('41', '40'));
    spec([]).when(hold('a-1', STARTING_CREDITS + 1)).thenThrows('payment_required', WALLET_TEXTS.insufficientCredits(String(STARTING_CREDITS + 1), String(STARTING_CREDITS)));
  });

  it('holds nothing for a free consultation, nor twice for one appointment; nothing recorded leaves it unopened', () => {
    spec([]).when(hold('a-1', 0)).then([]);
    spec([opened, held('a-1', 60)]).when(hold('a-1', 60)).then([]);
  });

  it('charges or returns a held fee once; nothing for a fee never held', () => {
    spec([opened, held('a-1', 60)])
      .when({ type: 'ChargeFee', data: { patient_id, appointment_id: 'a-1', reason: 'consultation' } })
      .then([{ type: 'FeeCharged', data: { patient_id, appointment_id: 'a-1', credits: 60, reason: 'consultation' } }]);
    const returned: WalletEvent = { type: 'FeeReturned', data: { patient_id, appointment_id: 'a-1', credits: 60, reason: 'rejected' } };
    spec([opened, held('a-1', 60)]).when({ type: 'ReturnFee', data: { patient_id, appointment_id: 'a-1', reason: 'rejected' } }).then([returned]);
    spec([opened, held('a-1', 60), returned]).when({ type: 'ReturnFee', data: { patient_id, appointment_id: 'a-1', reason: 'rejected' } }).then([]);
    spec([opened, held('a-1', 60), returned]).when({ type: 'ChargeFee', data: { patient_id, appointment_id: 'a-1', reason: 'consultation' } }).then([]);
    spec([opened]).when({ type: 'ReturnFee', data: { patient_id, appointment_id: 'never', reason: 'expired' } }).then([]);
    // A returned fee is spendable again.
    spec([opened, held('a-1', 60), returned]).when(hold('a-2', 100)).then([held('a-2', 100)]);
  });

  it('counts a captured payment once, however often it is told', () => {
    const bought: WalletEvent = { type: 'CreditsBought', data: purchase };
    spec([]).when({ type: 'RecordPurchase', data: purchase }).then([opened, bought]);
    spec([opened, bought]).when({ type: 'RecordPurchase', data: purchase }).then([]);
    spec([opened, bought]).when(hold('a-1', 300)).then([held('a-1', 300)]);
  });

  it("takes an operator's adjustment either way, never below zero, whole credits within the limit", () => {
    const adjust = (credits: number) => ({ type: 'Adjust' as const, data: { patient_id, credits, reason: 'Goodwill after a dropped call', adjusted_by: 'admin-1' } });
    spec([opened]).when(adjust(-100)).then([{ type: 'CreditsAdjusted', data: { patient_id, credits: -100, reason: 'Goodwill after a dropped call', adjusted_by: 'admin-1' } }]);
    spec([opened]).when(adjust(-101)).thenThrows('conflict', WALLET_TEXTS.adjustmentBelowZero);
    for (const credits of [0, 1.5, 100_001, -100_001]) spec([opened]).when(adjust(credits)).thenThrows('invalid', WALLET_TEXTS.adjustmentInvalid('100000'));
  });
});
