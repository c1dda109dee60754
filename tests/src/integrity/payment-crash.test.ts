import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, tmpDataDir } from '../support/test-app';
import { startServerProcess } from '../support/processes';
import { eventually } from '../support/eventually';

/**
 * `kill -9` between a payment's verified capture and its credit (issue 36): the local test gateway kept its webhook
 * (it is delivered until answered), so after a restart the credit lands, once, and the checkout's word asked again
 * adds nothing more.
 */
describe('a crash between a verified capture and its credit', () => {
  it('lands the credit once after the restart', { timeout: 180_000 }, async () => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir, env: { STARTING_CREDITS: '100' } });
    const patient = await setup.createUser('patient');
    await setup.close({ keepData: true });
    const headers = { 'Content-Type': 'application/json', Authorization: patient.auth.Authorization };

    const doomed = await startServerProcess({ DATA_DIR: dataDir, STARTING_CREDITS: '100', FAULT_INJECTION: 'crash-after-capture-verified' });
    const ordered = await fetch(`${doomed.baseUrl}/api/v1/wallet/orders`, { method: 'POST', headers, body: JSON.stringify({ credits: 100 }) });
    assert.equal(ordered.status, 201);
    const order = (await ordered.json()) as { order_id: string; checkout: { url: string } };
    // The tester pays: the gateway sends the patient back and its webhook to the product, which dies crediting it.
    const back = await fetch(`${doomed.baseUrl}${order.checkout.url}/pay`, { method: 'POST', redirect: 'manual' }).then(
      (r) => new URL(r.headers.get('location') ?? '/', doomed.baseUrl).searchParams,
      () => null,
    );
    assert.equal(await doomed.exited, -1, 'killed by a signal while crediting');

    const restarted = await startServerProcess({ DATA_DIR: dataDir, STARTING_CREDITS: '100' });
    try {
      await eventually(async () => {
        const wallet = (await (await fetch(`${restarted.baseUrl}/api/v1/wallet/me`, { headers })).json()) as { balance: number };
        assert.equal(wallet.balance, 200);
      }, 60_000);
      if (back?.get('payment_id')) {
        const again = await fetch(`${restarted.baseUrl}/api/v1/wallet/orders/${order.order_id}/payment`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ payment_id: back.get('payment_id'), signature: back.get('signature') }),
        });
        assert.equal(again.status, 200);
      }
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
    const after = await startTestApp({ dataDir, env: { STARTING_CREDITS: '100' } });
    try {
      const bought = (await after.app.eventStore.readStream(streams.wallet(patient.user_id))).filter((e) => e.type === 'CreditsBought');
      assert.equal(bought.length, 1, 'credited once');
    } finally {
      await after.close();
    }
  });
});
