import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, sendRequest, signInWithGoogle, startDemoProduct } from './browser';

/** The local identity provider's sign-in and consent pages, reached from wherever the app started the Google flow. */
async function completeProviderSignIn(page: Page, email: string): Promise<void> {
  await page.waitForURL(/\/oidc-login\//);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The booking funnel from a doctor's public page: a visitor who is not signed in picks a time from the doctor's
 * open slots (grouped by day), signs in with Google, lands on that slot's confirm page, sends the request, and
 * finds the doctor in their list; a signed-in patient books from the same page directly.
 */
describe('booking from a doctor’s public page', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let base: string;
  let doctorId: string;
  const context = { timezoneId: 'Asia/Kolkata', locale: 'en-IN' } as const;

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
    // The doctor shares their page: its link is on their profile.
    const doctor = await (await browser.newContext({ ...context, viewport: VIEWPORTS.desktop })).newPage();
    await signInWithGoogle(doctor, base, 'doctor1@demo.telemed.local');
    await doctor.goto(`${base}/profile`);
    const href = await doctor.getByTestId('public-page-link').getAttribute('href');
    doctorId = href!.slice(1);
    assert.ok(doctorId.length > 10, href ?? 'no link');
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: a visitor picks a slot by day, signs in, confirms it and has the doctor in their list`, async () => {
      const page = await (await browser.newContext({ ...context, viewport })).newPage();
      await page.goto(`${base}/${doctorId}`);
      await page.getByRole('heading', { level: 1, name: 'Dr. Ananya Sharma' }).waitFor();
      assert.ok(await page.getByText('₹399 per consultation').first().isVisible(), 'the fee is shown with its ₹');
      assert.equal(await page.getByText('+91 98000').count(), 0, 'no phone number on the public page');
      assert.equal(await page.getByRole('tab', { name: 'Book Consultation' }).getAttribute('aria-selected'), 'true', 'booking is the first thing shown');

      const days = page.getByRole('tablist', { name: 'Days with open slots for Dr. Ananya Sharma' }).getByRole('tab');
      assert.ok((await days.count()) >= 6, 'a week of days, as tabs');
      await days.nth(1).click(); // the second day with open slots
      await page.getByText('Morning').first().waitFor();
      const slot = page.locator('[data-slot-id]').nth(1);
      const slotId = await slot.getAttribute('data-slot-id');
      const dayLabel = (await days.nth(1).innerText()).split('\n')[0]!;
      await screenshot(page, 'public-doctor-page');
      await slot.click();

      const dialog = page.getByRole('dialog', { name: 'Sign in to book' });
      await dialog.getByText('Dr. Ananya Sharma').waitFor();
      await screenshot(page, 'public-doctor-sign-in-to-book');
      await dialog.getByRole('button', { name: 'Continue with Google' }).click();
      await completeProviderSignIn(page, `visitor.${kind}@example.in`);

      await page.waitForURL((url) => url.pathname === '/confirm-appointment' && url.searchParams.get('slot_id') === slotId, { timeout: 15_000 });
      await page.getByText('Dr. Ananya Sharma').first().waitFor();
      if (dayLabel === 'Tomorrow') await page.getByText(/Tomorrow at/).first().waitFor();
      await page.getByLabel('Reason for Visit').fill('Persistent cough for a week');
      await sendRequest(page);
      await page.getByText('Request Sent!').waitFor();
      await page.getByRole('button', { name: 'Got it!' }).click();
      await page.waitForURL(/\/home$/);
      await page.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Ananya Sharma' }).waitFor();
      await screenshot(page, 'home-after-public-booking');

      // Signed in, the same page recognises them: picking another time goes straight to its confirm page.
      await page.goto(`${base}/${doctorId}`);
      await page.getByRole('heading', { name: 'Signed in' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Continue with Google' }).count(), 0, 'no sign-in offered to a signed-in patient');
      const other = page.locator('[data-slot-id]').first();
      const otherId = await other.getAttribute('data-slot-id');
      assert.notEqual(otherId, slotId, 'the requested slot is no longer offered');
      await other.click();
      await page.waitForURL((url) => url.pathname === '/confirm-appointment' && url.searchParams.get('slot_id') === otherId);
      await page.getByRole('button', { name: 'Send Request' }).waitFor();
    });
  }

  it('a visitor sent to sign in from a protected page comes back to it', async () => {
    const page = await (await browser.newContext({ ...context, viewport: VIEWPORTS.desktop })).newPage();
    await page.goto(`${base}/my-appointments`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await completeProviderSignIn(page, 'returning.visitor@example.in');
    await page.waitForURL(/\/my-appointments$/, { timeout: 15_000 });
  });

  it('an unknown doctor id answers 404 with a detail, and the page says the doctor was not found (no stand-in profile)', async () => {
    const res = await fetch(`${base}/api/v1/public/doctors/no-such-doctor`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { detail: 'Doctor not found', code: 'doctor_not_found' });
    const page = await (await browser.newContext({ ...context, viewport: VIEWPORTS.phone })).newPage();
    await page.goto(`${base}/dr-ananya-sharmaa`);
    await page.getByRole('heading', { level: 1, name: 'Doctor not found' }).waitFor();
    assert.equal(await page.getByText('Sample profile', { exact: true }).count(), 0);
    await screenshot(page, 'public-doctor-not-found');
  });
});
