import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearer, chromiumMissing, demoProductInChromium, screenshot, sendRequest, signedInInIndia, VIEWPORTS } from './browser';

/**
 * Buying credits (issue 36) as a patient meets it with the local test gateway `npm start` serves: the pack chosen on
 * the home page, the gateway's checkout page, and back home with the credits the server added once it verified the
 * capture; a failed payment adds nothing and says so. Desktop and phone.
 */
describe('a patient buys credits at the checkout', { skip: chromiumMissing }, () => {
  // The product's own grant (100 credits), as a new patient meets it.
  const suite = demoProductInChromium({ STARTING_CREDITS: '100' });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`pays for a pack and sees the credits added; a failed payment adds none (${name})`, async () => {
      const { base, browser } = suite;
      const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', viewport);
      await patient.goto(`${base}/home`);
      const credits = patient.getByTestId('credits');
      await patient.locator('[data-testid="credits"]:not(:has(.MuiSkeleton-root))').waitFor();
      const before = Number(await credits.innerText());

      await patient.getByRole('button', { name: 'Add Credits' }).click();
      const dialog = patient.getByRole('dialog', { name: 'Purchase Credits' });
      await dialog.getByText(/Pay by UPI, card or net banking/).waitFor();
      await screenshot(patient, `wallet-packs`);
      await dialog.getByRole('button', { name: /^100 credits/ }).click();
      await patient.getByRole('heading', { name: 'Test checkout (development)' }).waitFor();
      await screenshot(patient, `wallet-checkout`);
      await patient.getByRole('button', { name: 'Pay ₹999.00' }).click();

      await patient.getByText('100 credits added. Thank you!').waitFor();
      await patient.locator('[data-testid="credits"]', { hasText: String(before + 100) }).waitFor();
      assert.equal(new URL(patient.url()).search, '', 'the checkout’s answer is taken off the address');
      await screenshot(patient, `wallet-paid`);

      // The statement has the pack, newest first.
      await patient.getByRole('button', { name: 'Statement' }).click();
      const statement = patient.getByRole('dialog', { name: 'Your credits statement' });
      await statement.getByText('Pack bought (₹999)').first().waitFor();
      await screenshot(patient, 'wallet-statement');
      await patient.keyboard.press('Escape');
      await statement.waitFor({ state: 'detached' });

      // A reload asks nothing again and shows the same balance.
      await patient.reload();
      await patient.locator('[data-testid="credits"]', { hasText: String(before + 100) }).waitFor();

      await patient.getByRole('button', { name: 'Add Credits' }).click();
      await patient.getByRole('dialog', { name: 'Purchase Credits' }).getByRole('button', { name: /^200 credits/ }).click();
      await patient.getByRole('button', { name: 'Make the payment fail' }).click();
      await patient.getByText('The payment failed and nothing was charged. You can try again.').waitFor();
      assert.equal(Number(await credits.innerText()), before + 100);
      await patient.close();
    });
  }

  it('a booking refused for credits buys the pack that covers it and comes back to be sent; a rejection returns the fee', async () => {
    const { base, browser } = suite;
    const patient = await signedInInIndia(browser, base, 'new.patient@example.in', VIEWPORTS.phone);
    const headers = await bearer(patient);
    const doctors = (await (await fetch(`${base}/api/v1/doctors/?skip=0&limit=20`, { headers })).json()) as Array<{ doctor_id: string; name: string }>;
    const ananya = doctors.find((d) => d.name === 'Dr. Ananya Sharma')!;
    const { slots } = (await (await fetch(`${base}/api/v1/doctors/${ananya.doctor_id}/available-slots`, { headers })).json()) as { slots: Array<{ slot_id: number }> };
    await patient.goto(`${base}/confirm-appointment?slot_id=${slots[0]!.slot_id}`);
    await patient.getByLabel(/Reason for Visit/).fill('Headache every morning');
    await sendRequest(patient);
    await patient.getByText(/This consultation needs 399 credits and you have 100/).waitFor();
    await screenshot(patient, 'wallet-top-up-offered');
    await patient.getByRole('button', { name: 'Buy 500 credits for ₹4,499' }).click();
    await patient.getByRole('button', { name: 'Pay ₹4499.00' }).click();
    await patient.getByText('500 credits added. Thank you!').waitFor();
    assert.equal(await patient.getByLabel(/Reason for Visit/).inputValue(), 'Headache every morning', 'the reason is kept');
    await screenshot(patient, 'wallet-top-up-paid');
    await patient.getByRole('button', { name: 'Send Request', exact: true }).click();
    await patient.getByRole('dialog').getByText(/Request sent/i).first().waitFor();

    const walletOf = async () => (await (await fetch(`${base}/api/v1/wallet/me`, { headers })).json()) as { balance: number; held: number };
    const held = await walletOf();
    assert.deepEqual([held.balance, held.held], [201, 399]);
    // Dr. Ananya rejects it: the fee comes back in full.
    const doctor = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    const doctorHeaders = await bearer(doctor);
    const pending = (await (await fetch(`${base}/api/v1/appointments/pending`, { headers: doctorHeaders })).json()) as Array<{ appointment_id: string; notes: string }>;
    const mine = pending.find((a) => a.notes === 'Headache every morning')!;
    const rejected = await fetch(`${base}/api/v1/appointments/${mine.appointment_id}/reject`, { method: 'POST', headers: doctorHeaders, body: JSON.stringify({ reason: 'Please see a neurologist' }) });
    assert.ok(rejected.ok, await rejected.text());
    await patient.goto(`${base}/home`);
    await patient.locator('[data-testid="credits"]', { hasText: '600' }).waitFor();
    await patient.close();
    await doctor.close();
  });
});
