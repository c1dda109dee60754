import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, runNpm, startServerProcess } from '../support/processes';
import { tmpDataDir } from '../support/test-app';
import { VIEWPORTS, chromiumMissing, ensureFrontendBuilt, launchChromium, screenshot, sendRequest, signInWithGoogle, startDemoProduct } from './browser';

/**
 * The whole product in a browser, as people use it: a patient signs in with Google, adds a doctor and requests a
 * slot; in a second browser the doctor sees the live request and approves (or rejects), and the patient is told.
 */
describe('patient and doctor in two browsers', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let patientContext: BrowserContext;
  let doctorContext: BrowserContext;
  let patient: Page;
  let doctor: Page;
  let base: string;

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
    // People in India: the screens speak in their time zone.
    patientContext = await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    doctorContext = await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    patient = await patientContext.newPage();
    doctor = await doctorContext.newPage();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('signs both in through the Google flow', async () => {
    await patient.goto(`${base}/login`);
    await screenshot(patient, 'login');
    await signInWithGoogle(patient, base, 'meera.iyer@example.in', { screenshots: true });
    await patient.getByRole('heading', { name: 'Your Doctors' }).waitFor();
    await patient.getByText("You haven't added any doctors yet.").waitFor();
    await signInWithGoogle(doctor, base, 'doctor1@demo.telemed.local');
    await doctor.getByRole('heading', { name: 'Doctor Dashboard' }).waitFor();
    await doctor.getByText('All caught up!').waitFor();
    await doctor.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
  });

  it('the patient adds a doctor and requests a slot; the doctor sees it live and approves; the patient is told', async () => {
    await patient.getByRole('button', { name: 'Add Doctor' }).click();
    const dialog = patient.getByRole('dialog');
    await dialog.getByLabel('Search by name, specialty or qualification').fill('ananya');
    const row = dialog.locator('li', { hasText: 'Dr. Ananya Sharma' });
    await row.getByRole('button', { name: 'Add Doctor' }).click();
    await patient.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Ananya Sharma' }).waitFor();
    await screenshot(patient, 'home');
    await patient.locator('[data-testid="my-doctor"]').getByRole('button').first().click();
    await patient.waitForURL(/\/confirm-appointment\?/);
    await patient.getByLabel('Reason for Visit').fill('Fever and sore throat for three days');
    await screenshot(patient, 'confirm-appointment');
    await patient.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
    await sendRequest(patient);
    await patient.getByText('Request Sent!').waitFor();
    await patient.getByRole('button', { name: 'Got it!' }).click();
    await patient.waitForURL(/\/home$/);

    const banner = doctor.locator('[data-testid="request-banner"]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /Meera Iyer has requested an appointment for/);
    assert.match(await banner.innerText(), /Reason: Fever and sore throat/);
    await doctor.getByText('New Patient Request').first().waitFor();
    await screenshot(doctor, 'doctor-home');
    await banner.getByRole('button', { name: 'Approve' }).click();
    await doctor.getByText('Appointment approved successfully!').waitFor();
    // Earnings are fees kept (issue 36): an approved request holds the patient's fee; it is earned when the consultation takes place.
    await doctor.locator('[data-testid="revenue-total"]', { hasText: '₹0' }).waitFor();
    assert.equal(await doctor.getByTestId('revenue-today').innerText(), 'Earned today: ₹0');
    await doctor.locator('[data-testid="weekly-patients"]', { hasText: '1' }).waitFor();
    await doctor.locator('[data-testid="upcoming-appointment"]', { hasText: 'Meera Iyer' }).waitFor();

    await patient.getByText('Appointment Approved!').waitFor();
    assert.match(await patient.locator('[data-testid="toast"]', { hasText: 'Appointment Approved!' }).innerText(), /Dr\. Ananya Sharma approved your appointment/);
    await patient.getByRole('button', { name: 'View Appointments' }).click();
    await patient.waitForURL(/\/my-appointments$/);
    const card = patient.locator('[data-testid="appointment-card"]', { hasText: 'Dr. Ananya Sharma' });
    await card.getByText('Confirmed').waitFor();
    await screenshot(patient, 'my-appointments');
  });

  it('the doctor rejects with a reason and the patient sees it declined', async () => {
    await patient.goto(`${base}/home`);
    const chips = patient.locator('[data-testid="my-doctor"]').getByRole('button');
    await chips.first().click();
    await patient.getByLabel('Reason for Visit').fill('Follow-up on blood test');
    await sendRequest(patient);
    await patient.getByText('Request Sent!').waitFor();
    await patient.getByRole('button', { name: 'Got it!' }).click();

    const request = doctor.locator('[data-testid="pending-request"]', { hasText: 'Follow-up on blood test' });
    await request.waitFor();
    await request.getByRole('button', { name: 'Reject' }).click();
    const dialog = doctor.getByRole('dialog', { name: 'Reject Appointment' });
    await dialog.getByLabel('Reason (optional)').fill('Please visit the clinic for this test');
    await dialog.getByRole('button', { name: 'Reject Appointment' }).click();
    await doctor.getByText('Appointment rejected').first().waitFor();

    const declined = patient.locator('[data-testid="toast"]', { hasText: 'Appointment Declined' });
    await declined.waitFor();
    assert.match(await declined.innerText(), /Please visit the clinic for this test/);
  });

  it('the doctor publishes availability with the calendar: drag a range on a day of next week, save', async () => {
    await doctor.goto(`${base}/doctor-home`);
    await doctor.getByRole('button', { name: 'Edit Availability' }).click();
    const dialog = doctor.getByRole('dialog', { name: 'Manage Availability Schedule' });
    await dialog.getByRole('button', { name: 'Next week' }).click();
    await dialog.getByRole('button', { name: 'Next week' }).click();
    const before = await dialog.getByText(/^Selected: \d+ slots/).innerText();
    const count = Number(/Selected: (\d+)/.exec(before)![1]);
    const cells = dialog.locator('[data-slot]');
    const first = cells.nth(0); // Sunday 6:00 AM, two weeks ahead: no demo availability there
    const fourth = cells.nth(7 * 3); // Sunday 7:30 AM (rows run across the 7 days)
    const a = (await first.boundingBox())!;
    const b = (await fourth.boundingBox())!;
    await doctor.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await doctor.mouse.down();
    await doctor.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
    await doctor.mouse.up();
    await dialog.getByText(`Selected: ${count + 4} slots • ${((count + 4) * 30).toLocaleString('en-IN')} minutes`).waitFor();
    await screenshot(doctor, 'availability-calendar');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await doctor.getByText('Availability saved').waitFor();
    await doctor.getByRole('button', { name: 'Edit Availability' }).click();
    await dialog.getByRole('button', { name: 'Next week' }).click();
    await dialog.getByRole('button', { name: 'Next week' }).click();
    assert.equal(await dialog.locator('[data-slot][aria-pressed="true"]').count() >= 4, true);
    assert.equal(await cells.nth(0).getAttribute('aria-pressed'), 'true', 'the saved slots come back selected');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('the doctor keeps the registration shown on consultations in the profile', async () => {
    await doctor.goto(`${base}/profile`);
    await doctor.getByLabel('Medical registration number').fill('DMC-45678');
    await doctor.getByLabel('Consultation Fee (₹)').fill('450');
    await doctor.getByRole('button', { name: 'Save', exact: true }).click();
    await doctor.getByText('Profile saved').waitFor();
    await screenshot(doctor, 'profile');
    await patient.goto(`${base}/home`);
    await patient.locator('[data-testid="my-doctor"]', { hasText: 'Reg. DMC-45678' }).waitFor();
  });

  it('looks right on a phone', async () => {
    for (const page of [patient, doctor]) await page.setViewportSize(VIEWPORTS.phone);
    await patient.goto(`${base}/home`);
    await patient.getByRole('heading', { name: 'Your Doctors' }).waitFor();
    await screenshot(patient, 'home');
    await patient.goto(`${base}/my-appointments`);
    await patient.getByRole('heading', { name: 'My Appointments' }).waitFor();
    await screenshot(patient, 'my-appointments');
    await doctor.goto(`${base}/doctor-home`);
    await doctor.getByRole('heading', { name: 'Doctor Dashboard' }).waitFor();
    await screenshot(doctor, 'doctor-home');
    await doctor.getByRole('button', { name: 'Edit Availability' }).click();
    await doctor.getByRole('dialog', { name: 'Manage Availability Schedule' }).waitFor();
    await screenshot(doctor, 'availability-calendar');
    await doctor.getByRole('button', { name: 'Cancel' }).click();
    const login = await browser.newPage({ viewport: VIEWPORTS.phone, timezoneId: 'Asia/Kolkata' });
    await login.goto(`${base}/login`);
    await screenshot(login, 'login');
  });
});

describe('the institution admin in the browser', { skip: chromiumMissing }, () => {
  it('manages the clinic’s doctors: add with the seeds’ defaults, remove after confirming', async () => {
    const { server, base } = await startDemoProduct();
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata' })).newPage();
      await signInWithGoogle(page, base, 'admin@demo.telemed.local');
      // A clinic's admin lands on /home (seed 000), which shows their institution, labelled as what they are; the
      // header leads them to the console.
      await page.waitForURL(/\/home$/);
      await page.getByTestId('role-label').filter({ hasText: 'Institution Admin' }).waitFor();
      await page.getByText('Sunrise Family Clinic').waitFor();
      await screenshot(page, 'clinic-admin-home');
      await page.getByRole('navigation').getByRole('link', { name: 'Admin Console' }).click();
      await page.waitForURL(/\/admin(\/|$)/);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.goto(`${base}/home`);
      await page.getByRole('button', { name: /Institution Admin/ }).click();
      await page.getByRole('menuitem', { name: 'Manage Institution' }).click();
      await page.waitForURL(/\/institution-admin$/);
      await page.getByText('Sunrise Family Clinic').waitFor();
      assert.equal(await page.locator('[data-testid="institution-doctor"]').count(), 2);
      await page.getByRole('button', { name: 'Add Doctor' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Dr. Nikhil Rao');
      await dialog.getByLabel('Email').fill('nikhil.rao@example.in');
      await dialog.getByLabel('Phone').fill('+91 98450 12345');
      await dialog.getByLabel('Qualification').fill('MBBS, MS');
      await dialog.getByLabel('Specialty').fill('Orthopedics');
      await screenshot(page, 'institution-add-doctor');
      await dialog.getByRole('button', { name: 'Add Doctor' }).click();
      await page.getByText('Doctor added successfully!').waitFor();
      const card = page.locator('[data-testid="institution-doctor"]', { hasText: 'Dr. Nikhil Rao' });
      await card.waitFor();
      assert.match(await card.innerText(), /₹100/);
      await screenshot(page, 'institution-admin');
      await card.getByRole('button', { name: 'Remove' }).click();
      const confirmRemove = page.getByRole('dialog', { name: 'Remove doctor?' });
      await confirmRemove.getByText('Are you sure you want to remove Dr. Nikhil Rao?').waitFor();
      await confirmRemove.getByRole('button', { name: 'Remove' }).click();
      await page.getByText('Doctor removed successfully').waitFor();
      await card.waitFor({ state: 'detached' });
      await page.setViewportSize(VIEWPORTS.phone);
      await screenshot(page, 'institution-admin');
    } finally {
      await browser.close();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe('a doctor invited by a clinic in the browser', { skip: chromiumMissing }, () => {
  it('sees the invitation on the dashboard and at its link, and accepts it; the clinic then lists the doctor', async () => {
    const { server, base } = await startDemoProduct();
    const browser = await launchChromium();
    try {
      const context = { viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata' };
      // The demo clinic invited doctor3, whose account existed: a pending invitation, not a member.
      const doctor = await (await browser.newContext(context)).newPage();
      await signInWithGoogle(doctor, base, 'doctor3@demo.telemed.local');
      await doctor.getByRole('heading', { name: 'Doctor Dashboard' }).waitFor();
      const invitation = doctor.locator('[data-testid="invitation"]', { hasText: 'Sunrise Family Clinic' });
      await invitation.waitFor();
      await screenshot(doctor, 'doctor-invitation');
      // The card links to /invitations/{id}, the page the invitation e-mail opens.
      await invitation.getByRole('link', { name: 'Sunrise Family Clinic' }).click();
      await doctor.waitForURL(/\/invitations\/[\w-]+$/);
      await doctor.reload();
      await doctor.locator('[data-testid="invitation"]', { hasText: 'Sunrise Family Clinic' }).getByRole('button', { name: 'Accept' }).click();
      await doctor.getByText('Invitation accepted').waitFor();
      await doctor.getByText('You accepted this invitation.').waitFor();

      const admin = await (await browser.newContext(context)).newPage();
      await signInWithGoogle(admin, base, 'admin@demo.telemed.local');
      await admin.goto(`${base}/institution-admin`);
      await admin.locator('[data-testid="institution-doctor"]', { hasText: 'Dr. Meera Kulkarni' }).waitFor();
      assert.equal(await admin.locator('[data-testid="institution-invitation"]').count(), 0);
    } finally {
      await browser.close();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe('the platform admin in the browser', { skip: chromiumMissing }, () => {
  it('signs in with a password and manages institutions: create with staff, see staff and appointments, disband', async () => {
    ensureFrontendBuilt();
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const dataDir = tmpDataDir();
    const server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'on', PORT: String(port), PUBLIC_URL: base, HOST: '127.0.0.1' });
    const created = await runNpm(['cli', '--', 'admin:create', '--email', 'ops@telemed.example.in', '--name', 'Ops Lead'], { DATA_DIR: dataDir }, 'a long enough passphrase\n');
    assert.equal(created.code, 0, created.stderr);
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata' })).newPage();
      await page.goto(`${base}/support`);
      await page.getByLabel('Email').fill('ops@telemed.example.in');
      await page.getByLabel('Password').fill('a long enough passphrase');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/institutions$/);
      await page.locator('[data-testid="institution-card"]', { hasText: 'Sunrise Family Clinic' }).waitFor();

      await page.getByRole('button', { name: 'Create Institution' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Institution' });
      await dialog.getByLabel('Institution name').fill('Lotus Care Hospital');
      assert.equal(await dialog.getByLabel('Slug').inputValue(), 'lotus-care-hospital', 'the slug derives from the name');
      await dialog.getByLabel('Address').fill('Park Street, Kolkata');
      await dialog.getByLabel('Phone').first().fill('+91 33 4000 5678');
      await dialog.getByLabel('Email').first().fill('hello@lotuscare.in');
      await dialog.getByLabel('Saturday closes').waitFor(); // hours of operation per weekday, the seeds' defaults
      assert.equal(await dialog.getByLabel('Saturday closes').inputValue(), '13:00');
      assert.equal(await dialog.getByRole('checkbox', { name: 'Sunday' }).isChecked(), false, 'closed on Sundays by default');
      const staffRow = dialog.getByTestId('staff-member').first();
      await staffRow.getByLabel('Role title').fill('Administrator');
      await staffRow.getByLabel('Name').fill('Rina Das');
      await staffRow.getByLabel('Email').fill('rina@lotuscare.in');
      await staffRow.getByLabel('Phone').fill('+91 98300 11111');
      await screenshot(page, 'institutions-create');
      await dialog.getByRole('button', { name: 'Create Institution' }).click();
      const card = page.locator('[data-testid="institution-card"]', { hasText: 'Lotus Care Hospital' });
      await card.waitFor();
      await screenshot(page, 'institutions');

      await card.getByRole('button', { name: 'Staff' }).click();
      await page.getByRole('cell', { name: 'Rina Das' }).waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      await page.locator('[data-testid="institution-card"]', { hasText: 'Sunrise Family Clinic' }).getByRole('button', { name: 'Appointments' }).click();
      await page.getByText('No appointments').waitFor();
      await page.getByRole('button', { name: 'Close' }).click();

      await card.getByRole('button', { name: 'Disband' }).click();
      await page.getByRole('dialog', { name: 'Disband institution?' }).getByRole('button', { name: 'Disband' }).click();
      await card.waitFor({ state: 'detached' });
    } finally {
      await browser.close();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
