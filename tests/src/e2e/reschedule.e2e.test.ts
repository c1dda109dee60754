import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { bearer, chromiumMissing, demoProductInChromium, screenshot, signedInInIndia, VIEWPORTS } from './browser';

/** The page's global object, as the marker below uses it (the tests compile without the DOM's types). */
declare const window: object;

const NOTICE_MARGIN_MS = 3 * 3600_000;


/**
 * The patient requests the demo doctor's first open slot far enough ahead to be moved (past the 2 hours' notice) and the
 * doctor approves it: the confirmed appointment's id.
 */
async function confirmedAppointment(base: string, patient: Page, doctor: Page): Promise<string> {
  const doctorHeaders = await bearer(doctor);
  const patientHeaders = await bearer(patient);
  const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: doctorHeaders })).json()) as { user_id: string };
  const { slots } = (await (await fetch(`${base}/api/v1/doctors/${me.user_id}/available-slots`, { headers: patientHeaders })).json()) as { slots: Array<{ slot_id: number; start_at: string }> };
  const slot = slots.find((s) => Date.parse(s.start_at) - Date.now() > NOTICE_MARGIN_MS);
  assert.ok(slot, 'the demo doctor has an open slot beyond the notice');
  const requested = await fetch(`${base}/api/v1/appointments`, { method: 'POST', headers: patientHeaders, body: JSON.stringify({ slot_id: slot.slot_id, notes: 'Sore throat and mild fever' }) });
  assert.equal(requested.status, 201, await requested.clone().text());
  const { appointment_id } = (await requested.json()) as { appointment_id: string };
  const approved = await fetch(`${base}/api/v1/appointments/${appointment_id}/approve`, { method: 'POST', headers: doctorHeaders });
  assert.equal(approved.status, 200, await approved.text());
  return appointment_id;
}

/** The first time of the second day the dialog offers: its button, and the time it shows ('11:30 am'). */
async function pickSecondDay(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Reschedule appointment' });
  await dialog.getByRole('tablist').getByRole('tab').nth(1).click();
  const slot = dialog.locator('[data-slot-id]').first();
  const time = (await slot.innerText()).trim();
  await slot.click();
  await dialog.getByTestId('reschedule-new-time').waitFor();
  return { dialog, time };
}

/**
 * Moving an appointment (issue 35) as people do it: the patient moves a confirmed appointment to another time of the
 * same doctor on My Appointments while the doctor's dashboard is open in another browser; the dashboard shows the
 * moved request at its new time, saying where it was, without a reload; the doctor approves it again and the patient
 * is told.
 */
describe('a patient reschedules; the doctor sees it live and approves it again', { skip: chromiumMissing }, () => {
  const suite = demoProductInChromium();

  it('moves a confirmed appointment and the doctor approves the new time', async () => {
    const { base, browser } = suite;
    const doctor = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    await doctor.getByRole('heading', { name: 'Doctor Dashboard' }).waitFor();
    const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.desktop);
    const appointmentId = await confirmedAppointment(base, patient, doctor);

    // The doctor's dashboard is open and connected; a mark on the window tells a reload apart (it would be gone).
    await doctor.goto(`${base}/doctor-home`);
    await doctor.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
    await doctor.evaluate(() => Object.assign(window, { notReloaded: true }));

    await patient.goto(`${base}/my-appointments`);
    const card = patient.locator(`[data-testid="appointment-card"][data-appointment-id="${appointmentId}"]`);
    await card.getByText('Confirmed').waitFor();
    const oldTime = /· (.+?) –/.exec(await card.innerText())?.[1];
    assert.ok(oldTime, 'the card shows the time');

    await card.getByRole('button', { name: 'Reschedule' }).click();
    const rule = patient.getByTestId('reschedule-rule');
    await rule.getByText('You can move an appointment up to 2 hours before it starts, at most 2 times.').waitFor();
    await rule.getByText('You can move this appointment 2 more times.').waitFor();
    await rule.getByText("It is confirmed now: at its new time it waits for the doctor's approval again.").waitFor();
    const { dialog, time } = await pickSecondDay(patient);
    await screenshot(patient, 'reschedule-dialog');
    await dialog.getByRole('button', { name: 'Move appointment' }).click();

    await patient.getByText('Appointment moved').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Awaiting approval').waitFor();
    await card.getByTestId('moved-times').getByText('Moved once').waitFor();
    assert.match(await card.innerText(), new RegExp(`· ${time} –`), 'the card shows the new time');
    await screenshot(patient, 'reschedule-moved');

    // The doctor's dashboard, live: the banner and the pending request say it was moved, from where, to when.
    const banner = doctor.getByTestId('request-banner');
    await banner.getByText('Appointment Moved').waitFor();
    assert.match(await banner.innerText(), new RegExp(`has moved their appointment to .* at ${time}`));
    assert.match(await banner.getByTestId('banner-moved-from').innerText(), new RegExp(`^Moved by the patient \\(was .* at ${oldTime}\\)$`));
    const request = doctor.locator('[data-testid="pending-request"]', { has: doctor.getByTestId('moved-from') });
    await request.waitFor();
    assert.match(await request.innerText(), new RegExp(`at ${time}`), 'the request at its new time');
    assert.match(await request.getByTestId('moved-from').innerText(), new RegExp(`Moved by the patient \\(was .* at ${oldTime}\\)`));
    assert.equal(await doctor.evaluate(() => 'notReloaded' in window), true, 'the dashboard was not reloaded');
    await screenshot(doctor, 'reschedule-doctor-dashboard');

    await request.getByRole('button', { name: 'Approve' }).click();
    await doctor.getByText('Appointment approved successfully!').first().waitFor();
    await request.waitFor({ state: 'detached' });

    await patient.getByText('Appointment Approved!').waitFor();
    await card.getByText('Confirmed').waitFor();
    await card.getByTestId('moved-times').waitFor();

    // On a phone: the same dialog, full screen, one move left.
    const phone = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.phone);
    await phone.goto(`${base}/my-appointments`);
    const phoneCard = phone.locator(`[data-testid="appointment-card"][data-appointment-id="${appointmentId}"]`);
    await phoneCard.getByRole('button', { name: 'Reschedule' }).click();
    await phone.getByTestId('reschedule-rule').getByText('You can move this appointment 1 more time.').waitFor();
    const onPhone = await pickSecondDay(phone);
    const box = await onPhone.dialog.getByRole('button', { name: 'Move appointment' }).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= VIEWPORTS.phone.width, 'the Move button is within the phone screen');
    await screenshot(phone, 'reschedule-dialog');
    await onPhone.dialog.getByRole('button', { name: 'Keep current time' }).click();
    await onPhone.dialog.waitFor({ state: 'detached' });
  });
});
