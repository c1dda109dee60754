import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct } from './browser';

/**
 * Consent before the first booking: a new patient reads the privacy notice on the confirm page (in English or
 * Hindi), ticks its box to agree and sends the request, withdraws on Profile, and is asked again at their next booking.
 */
describe('consent to the privacy notice, in the browser', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let patient: Page;
  let base: string;
  const pageErrors: string[] = [];

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
    patient = await (await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' })).newPage();
    patient.on('pageerror', (error) => pageErrors.push(error.message));
    await signInWithGoogle(patient, base, 'asha.consent@example.in');
    await patient.getByRole('button', { name: 'Add Doctor' }).click();
    const dialog = patient.getByRole('dialog');
    await dialog.getByLabel('Search by name, specialty or qualification').fill('ananya');
    await dialog.locator('li', { hasText: 'Dr. Ananya Sharma' }).getByRole('button', { name: 'Add Doctor' }).click();
    await patient.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Ananya Sharma' }).waitFor();
    await patient.keyboard.press('Escape');
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  /**
   * The index-th time of the doctor's last day with open slots: today's (the first day shown) may have one slot left, or
   * none after this test's own booking, when the suite runs near the end of the doctor's day.
   */
  async function openASlot(index: number) {
    await patient.goto(`${base}/home`);
    const card = patient.locator('[data-testid="my-doctor"]');
    await card.getByRole('tab').last().click();
    await card.getByRole('tabpanel').getByRole('button', { name: /\d{1,2}:\d{2}/ }).nth(index).click();
    await patient.waitForURL(/\/confirm-appointment\?/);
    await patient.getByLabel('Reason for Visit').fill('Headache for three days');
  }

  it('a new patient sees the notice, reads it in Hindi, agrees as they send, withdraws on Profile, and is asked again', async () => {
    await openASlot(0);
    const notice = patient.getByTestId('consent-notice');
    await notice.getByText(/What we collect/).waitFor();
    // The notice's language switch: the ten by their own names, in a native select.
    await notice.getByRole('combobox', { name: 'Language of the notice' }).selectOption('hi');
    await notice.getByText(/हम क्या एकत्र करते हैं/).waitFor();
    await screenshot(patient, 'consent-notice');
    // Agreeing is a step of its own: the box under the notice, then the seeds' Send Request.
    await notice.getByRole('checkbox', { name: 'I have read the privacy notice and I agree to it' }).check();
    await patient.getByRole('button', { name: 'Send Request', exact: true }).click();
    await patient.getByText('Request Sent!').waitFor();
    await patient.getByRole('button', { name: 'Got it!' }).click();

    // Agreed: the next booking goes straight through, with no notice.
    await openASlot(1);
    await patient.getByRole('button', { name: 'Send Request', exact: true }).waitFor();
    assert.equal(await patient.getByTestId('consent-notice').count(), 0);

    await patient.goto(`${base}/profile`);
    const consents = patient.getByTestId('consents-list');
    await consents.getByText('Agreed', { exact: true }).waitFor();
    await consents.getByText(/हिन्दी · agreed/).waitFor();
    await screenshot(patient, 'profile-consents');
    await consents.getByRole('button', { name: /Withdraw consent/ }).click();
    const dialog = patient.getByRole('dialog', { name: 'Withdraw consent?' });
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await consents.getByText('Withdrawn', { exact: true }).waitFor();
    await patient.getByText('You will be asked to agree again before your next booking.').waitFor();

    await openASlot(1);
    await patient.getByTestId('consent-notice').getByText(/What we collect/).waitFor();
    await patient.getByTestId('consent-notice').getByRole('checkbox', { name: 'I have read the privacy notice and I agree to it', checked: false }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
