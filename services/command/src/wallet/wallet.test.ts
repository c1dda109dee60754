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

  it("a refund takes the pack's share of credits once, as far as the free balance goes; what was spent is uncovered, never a negative balance", () => {
    const bought: WalletEvent = { type: 'CreditsBought', data: purchase };
    const refund = (refund_id: string, amount_paise: number) => ({ type: 'RecordRefund' as const, data: { patient_id, payment_id: 'pay_1', refund_id, amount_paise } });
    const refunded = (refund_id: string, amount_paise: number, credits: number, uncovered_credits: number): WalletEvent => ({
      type: 'PackRefunded',
      data: { patient_id, order_id: 'order_1', payment_id: 'pay_1', refund_id, amount_paise, credits, uncovered_credits },
    });
    // Half the price back: half the pack's 200 credits.
    spec([opened, bought]).when(refund('rfnd_1', 94_950)).then([refunded('rfnd_1', 94_950, 100, 0)]);
    spec([opened, bought, refunded('rfnd_1', 94_950, 100, 0)]).when(refund('rfnd_1', 94_950)).then([]);
    // 250 of the 300 held for requests: of the pack's 200, 50 are taken and 150 were already spent.
    spec([opened, bought, held('a-1', 250)]).when(refund('rfnd_2', 189_900)).then([refunded('rfnd_2', 189_900, 50, 150)]);
    // A refund of a payment the wallet never counted takes nothing.
    spec([opened]).when(refund('rfnd_3', 189_900)).then([]);
  });
});
