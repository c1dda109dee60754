import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct } from './browser';

// The page's own globals used inside page.evaluate, typed here: the tests compile without the DOM library.
declare const sessionStorage: { getItem(key: string): string | null };

const DOCTOR = 'Dr. Rohan Iyer';

/**
 * A doctor deactivated by their institution, as the patient meets them (the API and component tests cover the rule;
 * this goes through the real screens): the demo patient adds Dr. Rohan Iyer, the clinic's admin deactivates him in the
 * console at /admin, and then the patient's card of him, the doctor search of Add Doctor and his public page each say
 * 'Not accepting bookings' with no time to pick and nothing to book.
 */
describe('a deactivated doctor, as the patient sees them', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let base: string;
  let doctorId: string;
  const contexts: BrowserContext[] = [];

  async function newPage(viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS]): Promise<Page> {
    const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    contexts.push(context);
    return context.newPage();
  }

  /** The doctor's card in "Your Doctors" on the patient's home. */
  const cardOf = (page: Page) => page.getByTestId('my-doctor').filter({ hasText: DOCTOR });

  /** The doctor's entry in Add Doctor's search, searched by name. */
  async function searchEntry(page: Page) {
    await page.getByRole('button', { name: 'Add Doctor' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a Doctor' });
    await dialog.getByLabel('Search by name, specialty or qualification').fill('Rohan');
    const entry = dialog.getByRole('listitem').filter({ hasText: DOCTOR });
    await entry.waitFor();
    return { dialog, entry };
  }

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('while he takes bookings, the patient finds him in the doctor search, with times to pick, and adds him', async () => {
    const page = await newPage(VIEWPORTS.desktop);
    await signInWithGoogle(page, base, 'patient@demo.telemed.local');
    await page.getByRole('heading', { name: 'Your Doctors' }).waitFor();
    const { dialog, entry } = await searchEntry(page);
    // Times to pick as chips (the first few), and the add button.
    assert.ok((await entry.getByRole('button').count()) > 1, 'times to pick beside Add Doctor');
    assert.equal(await entry.getByText('Not accepting bookings').count(), 0);
    await entry.getByRole('button', { name: 'Add Doctor' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = cardOf(page);
    await card.getByRole('tablist', { name: `Days with open slots for ${DOCTOR}` }).waitFor();
    assert.ok((await card.locator('[data-slot-id]').count()) > 0, 'his open slots are on his card');
    await screenshot(page, 'deactivated-doctor-before');
  });

  it("the clinic's admin deactivates him in the console, after confirming", async () => {
    const page = await newPage(VIEWPORTS.desktop);
    await signInWithGoogle(page, base, 'admin@demo.telemed.local');
    await page.goto(`${base}/admin/doctors`);
    const row = page.locator('tr', { hasText: DOCTOR }).first();
    await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Deactivate ${DOCTOR}?`).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByText(`${DOCTOR} deactivated`).waitFor();
    await row.getByRole('button', { name: 'Activate', exact: true }).waitFor();
    // His id, for his public page.
    doctorId = await page.evaluate(async () => {
      const token = sessionStorage.getItem('auth_token') ?? '';
      const res = await fetch(`/api/v1/admin/doctors?filter=${encodeURIComponent(JSON.stringify({ q: 'rohan' }))}`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await res.json()) as Array<{ doctor_id: string }>)[0]!.doctor_id;
    });
    assert.ok(doctorId);
  });

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: the patient's card of him, the doctor search and his page say 'Not accepting bookings', with nothing to book`, async () => {
      assert.ok(doctorId, 'deactivated by the previous test');
      const page = await newPage(viewport);
      await signInWithGoogle(page, base, 'patient@demo.telemed.local');

      // His card on the patient's home: the words in place of his slots.
      const card = cardOf(page);
      await card.getByTestId('not-accepting').getByText('Not accepting bookings', { exact: true }).waitFor();
      assert.equal(await card.getByRole('tablist').count(), 0, 'no days to pick');
      assert.equal(await card.locator('[data-slot-id]').count(), 0, 'no time to pick');
      assert.equal(await card.getByRole('button').count(), 0, 'nothing to click on his card');
      await screenshot(page, 'deactivated-doctor-home');

      // Add Doctor's search: the words, and no time chips (his entry's one button is the disabled 'Added').
      const { dialog, entry } = await searchEntry(page);
      await entry.getByText('Not accepting bookings', { exact: true }).waitFor();
      const buttons = entry.getByRole('button');
      assert.equal(await buttons.count(), 1, 'no time chips');
      assert.equal(await buttons.first().innerText(), 'Added');
      assert.ok(await buttons.first().isDisabled());
      await screenshot(page, 'deactivated-doctor-search');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // His public page: the booking panel says so, with no day or time to pick.
      await page.goto(`${base}/${doctorId}`);
      await page.getByRole('heading', { level: 1, name: DOCTOR }).waitFor();
      await page.getByText('Not accepting bookings', { exact: true }).waitFor();
      await page.getByText(`${DOCTOR} is not accepting bookings at the moment. Please check again later.`).waitFor();
      assert.equal(await page.getByRole('tablist', { name: `Days with open slots for ${DOCTOR}` }).count(), 0);
      assert.equal(await page.locator('[data-slot-id]').count(), 0, 'no time to pick');
      await screenshot(page, 'deactivated-doctor-public-page');
    });
  }
});
