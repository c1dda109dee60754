import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct } from './browser';

/**
 * The privacy sections of /profile: after a doctor opened the patient's request, the patient sees who saw their
 * data, downloads everything held about them, and reads exactly what erasing would do (then keeps their data: the
 * erasure itself is another test's).
 */
describe('profile privacy sections, in the browser', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let base: string;
  const pageErrors: string[] = [];

  async function signedIn(email: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-IN', acceptDownloads: true })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInWithGoogle(page, base, email);
    return page;
  }

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it("a doctor's reading shows in the patient's 'Who saw my data'; the export downloads; erasure says what happens", async () => {
    const doctorPage = await signedIn('doctor1@demo.telemed.local', VIEWPORTS.desktop);
    const bearer = async (page: Page) => ({ Authorization: `Bearer ${await page.evaluate("sessionStorage.getItem('auth_token')")}`, 'Content-Type': 'application/json' });
    const doctor = (await (await fetch(`${base}/api/v1/users/me`, { headers: await bearer(doctorPage) })).json()) as { user_id: string; name: string };
    const patient = await signedIn('patient@demo.telemed.local', VIEWPORTS.desktop);
    // The demo patient books with the first demo doctor through the API, with the browser's own token.
    const auth = await bearer(patient);
    const slots = (await (await fetch(`${base}/api/v1/doctors/${doctor.user_id}/available-slots`, { headers: auth })).json()) as { slots: Array<{ slot_id: number }> };
    const booked = await fetch(`${base}/api/v1/appointments`, { method: 'POST', headers: auth, body: JSON.stringify({ slot_id: slots.slots[0]!.slot_id, notes: 'Sore throat and fever' }) });
    assert.equal(booked.status, 201, await booked.clone().text());
    // The doctor opens their home: the request, with the patient's name and reason, is on screen (and on record).
    await doctorPage.goto(`${base}/doctor-home`);
    await doctorPage.getByText('Priya Patel').first().waitFor();

    await patient.goto(`${base}/profile`);
    const log = patient.getByRole('region', { name: 'Who saw my data' });
    await log.getByText(doctor.name).first().waitFor();
    await log.getByText('Why: Your care (the doctor treating you)').first().waitFor();
    await screenshot(patient, 'profile-privacy');

    const [download] = await Promise.all([patient.waitForEvent('download'), patient.getByRole('button', { name: 'Download my data' }).click()]);
    assert.match(download.suggestedFilename(), /^telemed-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
    assert.equal(exported.profile.name, 'Priya Patel');
    assert.ok(exported.appointments.some((a: { notes: string; shared_with: Array<{ name: string }> }) => a.notes === 'Sore throat and fever' && a.shared_with.some((s) => s.name === doctor.name)));

    await patient.getByRole('button', { name: 'Erase my data' }).click();
    const dialog = patient.getByRole('dialog', { name: 'Erase all your data?' });
    await dialog.getByText(/key they are encrypted with is destroyed/).waitFor();
    await dialog.getByText(/Kept under legal hold/).waitFor();
    await screenshot(patient, 'profile-erase-confirm');
    await dialog.getByRole('button', { name: 'Keep my data' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const phone = await signedIn('patient@demo.telemed.local', VIEWPORTS.phone);
    await phone.goto(`${base}/profile`);
    await phone.getByRole('region', { name: 'Who saw my data' }).getByText(doctor.name).first().waitFor();
    await screenshot(phone, 'profile-privacy');
    await phone.getByRole('button', { name: 'Erase my data' }).click();
    await phone.getByRole('dialog', { name: 'Erase all your data?' }).getByText(/Kept under legal hold/).waitFor();
    await screenshot(phone, 'profile-erase-confirm');
    assert.deepEqual(pageErrors, []);
  });

  it("erasing: 'Your data was erased' stays on screen with no error toast over it (the closed socket and refused reads are expected) until Sign out", async () => {
    const page = await signedIn('erase.me@example.in', VIEWPORTS.phone);
    await page.goto(`${base}/profile`);
    await page.locator('[data-testid="connection-light"][data-state="connected"]').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Erase my data' }).click();
    await page.getByRole('dialog', { name: 'Erase all your data?' }).getByRole('button', { name: 'Erase my data' }).click();
    const done = page.getByRole('dialog', { name: 'Your data was erased' });
    await done.waitFor();
    // The server ends the session: it closes the socket (the light leaves 'connected'), and the app's reads are refused.
    await page.locator('[data-testid="connection-light"]:not([data-state="connected"])').waitFor({ timeout: 15_000 });
    await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
    // What is checked is an absence: wait past the 2 s after which an authentication error would have signed out.
    await page.waitForTimeout(3000);
    assert.equal(await page.getByText(/Authentication failed|Session expired/).count(), 0, 'no error toast over the dialog');
    assert.ok(await done.isVisible(), 'the dialog is still there');
    await screenshot(page, 'profile-erased');
    await done.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    assert.deepEqual(pageErrors, []);
  });
});
