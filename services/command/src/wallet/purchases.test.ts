import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DomainError, streams } from '@telemed/contracts';
import { SqliteEventStore, createLogger, type GatewayPayment, type PaymentGateway } from '@telemed/platform';
import { systemContext } from '../decider';
import { confirmPackPayment, orderPack, receivePaymentNotice } from './purchases';
import { reconcile } from './reconciliation';

/** A gateway whose payments are what the case says, every signature good: what is credited is decided by status. */
function gatewayWith(payments: Record<string, GatewayPayment['status']>): PaymentGateway {
  let next = 0;
  return {
    name: 'fake',
    createOrder: async ({ amount_paise }) => ({ order_id: `order_${(next += 1)}`, amount_paise, currency: 'INR' }),
    checkout: () => ({ kind: 'local', url: '/checkout' }),
    verifyCheckout: () => true,
    verifyWebhook: () => true,
    listPayments: async () => [],
    fetchPayment: async (payment_id) => (payments[payment_id] ? { payment_id, order_id: 'order_1', amount_paise: 99_900, currency: 'INR', status: payments[payment_id]! } : null),
    refund: async () => ({ refund_id: 'rfnd_1', amount_paise: 0 }),
  };
}

describe('crediting a pack (the payments review)', () => {
  const store = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'purchases-')), 'events.db') });
  after(() => store.close());
  const context = systemContext(new Date('2030-01-01T09:00:00Z'), null);
  const logger = createLogger({ level: 'silent' });
  const bought = async (patient: string) => (await store.readStream(streams.wallet(patient))).filter((e) => e.type === 'CreditsBought').map((e) => (e.data as { payment_id: string }).payment_id);

  it('only a captured payment counts; one refused or refunded is refused, an authorized one is pending; an order is credited once', async () => {
    const deps = { eventStore: store, logger, gateway: gatewayWith({ pay_A: 'captured', pay_B: 'captured', pay_R: 'refunded', pay_F: 'failed', pay_P: 'authorized' }) };
    const patient = 'patient-review-1';
    const { order_id } = await orderPack(deps, { patient_id: patient, credits: 100 }, context);
    assert.equal(order_id, 'order_1');
    const confirm = (payment_id: string) => confirmPackPayment(deps, { patient_id: patient, order_id, payment_id, signature: 'good' }, context);
    for (const refused of ['pay_R', 'pay_F']) await assert.rejects(confirm(refused), (e: unknown) => e instanceof DomainError && e.kind === 'conflict', refused);
    assert.equal((await confirm('pay_P')).status, 'pending');
    assert.deepEqual(await bought(patient), []);
    assert.equal((await confirm('pay_A')).status, 'paid');
    // A second checkout of the same order paid too: the gateway's to refund, not a second pack.
    await confirm('pay_B');
    await receivePaymentNotice(deps, { kind: 'captured', payment_id: 'pay_B', order_id, amount_paise: 99_900, currency: 'INR' }, context);
    assert.deepEqual(await bought(patient), ['pay_A']);
  });

  it('the reconciliation: captured payments no wallet counted, and credits whose payment the gateway does not show as taken', () => {
    const payment = (payment_id: string, status: GatewayPayment['status']): GatewayPayment => ({ payment_id, order_id: 'order_1', amount_paise: 99_900, currency: 'INR', status });
    const credit = (payment_id: string) => ({ payment_id, patient_id: 'p-1', amount_paise: 99_900, at: '2030-01-01T09:00:00.000Z' });
    const report = reconcile(
      [payment('pay_A', 'captured'), payment('pay_B', 'captured'), payment('pay_F', 'failed'), payment('pay_R', 'refunded')],
      [credit('pay_A'), credit('pay_R'), credit('pay_X')],
    );
    assert.deepEqual(report, {
      matched: 2,
      gateway_only: [{ payment_id: 'pay_B', order_id: 'order_1', amount_paise: 99_900, status: 'captured' }],
      wallet_only: [credit('pay_X')],
    });
  });
});
