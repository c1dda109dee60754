import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DateTime } from 'luxon';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, sendRequest, signInWithGoogle, startDemoProduct } from './browser';

/**
 * What new users ran into, each as the step where a person would notice it: the doctor's My Appointments, dead
 * links, stale counts, toasts that outlive their request, messages without names, a banner out of view, a confirm
 * page that believes its URL, roles and logout.
 */
describe('the product as new users meet it', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let patient: Page;
  let doctor: Page;
  let base: string;
  const pageErrors: string[] = [];

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
    const context = { viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' };
    patient = await (await browser.newContext(context)).newPage();
    doctor = await (await browser.newContext(context)).newPage();
    for (const page of [patient, doctor]) page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInWithGoogle(patient, base, 'kiran.bose@example.in');
    await signInWithGoogle(doctor, base, 'doctor1@demo.telemed.local');
    await doctor.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  const badge = (page: Page) => page.getByTestId('appointment-badge').locator('.MuiBadge-badge');
  const requestToasts = (page: Page) => page.locator('[data-testid="toast"]', { hasText: 'New Patient Request' });

  async function requestFirstSlot(reason: string): Promise<string> {
    await patient.goto(`${base}/home`);
    await patient.locator('[data-testid="my-doctor"]').getByRole('button').first().click();
    await patient.waitForURL(/\/confirm-appointment\?/);
    const slotId = new URL(patient.url()).searchParams.get('slot_id')!;
    await patient.getByLabel('Reason for Visit').fill(reason);
    await sendRequest(patient);
    await patient.getByText('Request Sent!').waitFor();
    await patient.getByRole('button', { name: 'Got it!' }).click();
    return slotId;
  }

  it('labels each role as what it is', async () => {
    assert.equal(await patient.getByTestId('role-label').innerText(), 'Patient');
    assert.equal(await doctor.getByTestId('role-label').innerText(), 'Healthcare Provider');
  });

  it('a doctor opens My Appointments from the header and gets a real list, not a blank page', async () => {
    await doctor.getByRole('link', { name: /My Appointments/ }).click();
    await doctor.getByRole('heading', { name: 'My Appointments', level: 1 }).waitFor();
    await doctor.getByRole('heading', { name: 'Upcoming' }).waitFor();
    await doctor.getByRole('heading', { name: 'Past' }).waitFor();
    await screenshot(doctor, 'doctor-my-appointments');
  });

  it('an unknown path, such as a blog link, shows a not-found page with a way home', async () => {
    // Not a sample profile's article (those are real pages now): a slug no article has.
    await patient.goto(`${base}/blog/no-such-article`);
    await patient.getByRole('heading', { name: 'Page not found' }).waitFor();
    await patient.getByRole('link', { name: 'Go to your dashboard' }).click();
    await patient.waitForURL(/\/home$/);
  });

  it('the badge counts a new request at once; the doctor gets one toast for it, gone once it is handled; the patient keeps the decline with its reason', async () => {
    await patient.getByRole('button', { name: 'Add Doctor' }).click();
    const dialog = patient.getByRole('dialog');
    await dialog.getByLabel('Search by name, specialty or qualification').fill('ananya');
    await dialog.locator('li', { hasText: 'Dr. Ananya Sharma' }).getByRole('button', { name: 'Add Doctor' }).click();
    await patient.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Ananya Sharma' }).waitFor();
    await doctor.goto(`${base}/doctor-home`);
    await doctor.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();

    const slotId = await requestFirstSlot('Persistent cough');
    await badge(patient).filter({ hasText: '1' }).waitFor({ timeout: 3000 });

    await doctor.locator('[data-testid="request-banner"]').waitFor();
    await requestToasts(doctor).first().waitFor();
    assert.equal(await requestToasts(doctor).count(), 1, 'one toast per request');
    // The banner stays in view when the doctor has scrolled down.
    await doctor.mouse.wheel(0, 5000); // scroll to the bottom of the dashboard
    await doctor.waitForTimeout(200);
    const box = (await doctor.locator('[data-testid="request-banner"]').boundingBox())!;
    assert.ok(box.y >= 0 && box.y < VIEWPORTS.desktop.height / 2, `banner at y=${box.y} after scrolling`);
    await screenshot(doctor, 'doctor-home-scrolled-banner');

    // The confirm page shows the server's facts, not the URL's, and knows the slot is this patient's already.
    await patient.goto(`${base}/confirm-appointment?slot_id=${slotId}&doctorName=Dr.+Fake+Person`);
    await patient.getByTestId('slot-facts').getByText('Dr. Ananya Sharma').waitFor();
    assert.equal(await patient.getByText('Dr. Fake Person').count(), 0);
    await patient.getByText(/You have already requested this slot/).waitFor();
    await screenshot(patient, 'confirm-already-requested');

    const request = doctor.locator('[data-testid="pending-request"]', { hasText: 'Persistent cough' });
    await request.getByRole('button', { name: 'Reject' }).click();
    const reject = doctor.getByRole('dialog', { name: 'Reject Appointment' });
    await reject.getByLabel('Reason (optional)').fill('Please see a chest specialist');
    await reject.getByRole('button', { name: 'Reject Appointment' }).click();
    await doctor.getByText('Appointment rejected').first().waitFor();
    await requestToasts(doctor).first().waitFor({ state: 'detached' });

    await patient.goto(`${base}/my-appointments`);
    const past = patient.locator('section', { has: patient.getByRole('heading', { name: 'Past' }) });
    const declined = past.locator('[data-testid="appointment-card"]', { hasText: 'Declined' });
    await declined.waitFor();
    assert.match(await declined.innerText(), /Please see a chest specialist/);
    await screenshot(patient, 'my-appointments-past');
  });

  it("when the patient cancels, the doctor's message names the patient; the dialog is the app's own", async () => {
    await requestFirstSlot('Skin rash');
    const banner = doctor.locator('[data-testid="request-banner"]');
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Approve' }).click();
    await doctor.getByText('Appointment approved successfully!').waitFor();
    await requestToasts(doctor).first().waitFor({ state: 'detached' });

    await patient.goto(`${base}/my-appointments`);
    const card = patient.locator('[data-testid="appointment-card"]', { hasText: 'Skin rash' });
    await card.getByText('Confirmed').waitFor();
    await card.getByRole('button', { name: 'Cancel' }).click();
    const confirm = patient.getByRole('dialog', { name: 'Cancel appointment?' });
    await confirm.getByText(/Are you sure you want to cancel this appointment\?/).waitFor();
    await screenshot(patient, 'cancel-dialog');
    await confirm.getByRole('button', { name: 'Cancel appointment' }).click();
    await patient.getByText('Appointment cancelled').first().waitFor();

    const toast = doctor.locator('[data-testid="toast"]', { hasText: 'Appointment cancelled' });
    await toast.waitFor();
    assert.match(await toast.innerText(), /Kiran Bose cancelled the appointment for/);
  });

  it("the availability calendar marks the current time in today's column", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    const page = await context.newPage();
    const today = DateTime.now().setZone('Asia/Kolkata').set({ hour: 10, minute: 15, second: 0 });
    await page.clock.setFixedTime(today.toJSDate());
    await signInWithGoogle(page, base, 'doctor2@demo.telemed.local');
    await page.getByRole('button', { name: 'Edit Availability' }).click();
    const marker = page.getByRole('dialog', { name: 'Manage Availability Schedule' }).getByTestId('now-marker');
    await marker.waitFor();
    const cell = page.locator(`[data-slot="${today.toISODate()}-8"]`); // 10:00 is row 8 from 06:00
    assert.equal(await cell.getByTestId('now-marker').count(), 1);
    // The calendar works from the keyboard: a later slot takes focus and Enter or Space toggles it.
    const later = page.locator(`[data-slot="${today.toISODate()}-20"]`);
    const before = await later.getAttribute('aria-pressed');
    await later.focus();
    await page.keyboard.press('Enter');
    assert.notEqual(await later.getAttribute('aria-pressed'), before);
    await page.keyboard.press('Space');
    assert.equal(await later.getAttribute('aria-pressed'), before);
    await context.close();
  });

  it('logout goes to /', async () => {
    await patient.goto(`${base}/home`);
    await patient.getByRole('button', { name: /Kiran Bose/ }).click();
    await patient.getByRole('menuitem', { name: 'Logout' }).click();
    await patient.getByRole('button', { name: 'Continue with Google' }).waitFor();
    assert.equal(new URL(patient.url()).pathname, '/');
  });

  it('no page threw', () => {
    assert.deepEqual(pageErrors, []);
  });
});
