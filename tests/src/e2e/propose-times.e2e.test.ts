import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, confirmedAppointment, demoProductInChromium, screenshot, signedInInIndia, VIEWPORTS } from './browser';

/** The page's global object, as the marker below uses it (the tests compile without the DOM's types). */
declare const window: object;



const card = (page: Page, appointmentId: string) => page.locator(`[data-testid="appointment-card"][data-appointment-id="${appointmentId}"]`);

/** The card's time as it writes it ('Friday, 27 November 2026 · 10:00 am – 10:30 am'): its start. */
async function startShown(page: Page, appointmentId: string): Promise<string> {
  const start = /· (.+?) –/.exec(await card(page, appointmentId).innerText())?.[1];
  assert.ok(start, 'the card shows the time');
  return start;
}

/** Picks the first `count` times of the dialog's second day: what each button shows ('11:30 am'). */
async function pickOnSecondDay(page: Page, count: number): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name: 'Offer other times' });
  await dialog.getByRole('tablist').getByRole('tab').nth(1).click();
  const times: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const slot = dialog.locator('[data-slot-id]').nth(i);
    times.push((await slot.innerText()).trim());
    await slot.click();
  }
  await dialog.getByTestId('offer-times-count').getByText(`Chosen: ${count} of 3`).waitFor();
  return times;
}

/**
 * Other times offered (issue 35) as people do it: the doctor, on their My Appointments, offers the patient two other
 * times for a confirmed appointment; the patient's My Appointments, open in another browser, shows the offer without a
 * reload; the patient accepts one and the doctor's list shows the appointment confirmed at its new time.
 */
describe('the doctor offers other times; the patient sees them live and accepts one', { skip: chromiumMissing }, () => {
  const suite = demoProductInChromium();

  it('offers two times, the patient takes the second, both see it confirmed there', async () => {
    const { base, browser } = suite;
    const doctor = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.desktop);
    const appointmentId = await confirmedAppointment(base, patient, doctor);

    // The patient's list is open and connected; a mark on the window tells a reload apart (it would be gone).
    await patient.goto(`${base}/my-appointments`);
    await patient.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
    await card(patient, appointmentId).getByText('Confirmed').waitFor();
    await patient.evaluate(() => Object.assign(window, { notReloaded: true }));

    await doctor.goto(`${base}/my-appointments`);
    const doctorCard = card(doctor, appointmentId);
    await doctorCard.getByText('Confirmed').waitFor();
    await doctorCard.getByRole('button', { name: 'Offer other times' }).click();
    const dialog = doctor.getByRole('dialog', { name: 'Offer other times' });
    await dialog.getByText('Pick up to 3 of your open times.', { exact: false }).waitFor();
    const offered = await pickOnSecondDay(doctor, 2);
    await screenshot(doctor, 'propose-times-dialog');
    await dialog.getByRole('button', { name: 'Offer 2 times' }).click();
    await doctor.getByText('Other times offered to', { exact: false }).first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await doctorCard.getByTestId('offer-waiting').getByText('Other times offered — waiting for the patient').waitFor();
    await screenshot(doctor, 'propose-times-doctor-waiting');

    // The patient, live: the toast and the offer on the card, each time with its Accept.
    await patient.getByText('Other times offered', { exact: true }).waitFor();
    const panel = card(patient, appointmentId).getByTestId('proposal-panel');
    await panel.getByRole('heading', { name: /offered other times$/ }).waitFor();
    await panel.getByTestId('proposal-answer-by').waitFor();
    const times = panel.getByTestId('proposed-time');
    assert.equal(await times.count(), 2);
    for (const [i, time] of offered.entries()) assert.match(await times.nth(i).innerText(), new RegExp(`at ${time}`), `offered time ${i + 1}`);
    assert.equal(await patient.evaluate(() => 'notReloaded' in window), true, 'the patient’s list was not reloaded');
    await screenshot(patient, 'propose-times-patient-panel');

    await times.nth(1).getByRole('button', { name: /^Accept / }).click();
    await patient.getByText('New time accepted').waitFor();
    await panel.waitFor({ state: 'detached' });
    await card(patient, appointmentId).getByText('Confirmed').waitFor();
    assert.equal(await startShown(patient, appointmentId), offered[1], 'the patient’s card shows the accepted time');

    // The doctor's list follows: confirmed at the accepted time, nothing waiting any more.
    await doctorCard.getByTestId('offer-waiting').waitFor({ state: 'detached' });
    await doctorCard.getByText('Confirmed').waitFor();
    assert.equal(await startShown(doctor, appointmentId), offered[1], 'the doctor’s card shows the accepted time');

    // On a phone: the doctor's dialog full screen with its buttons on screen, and the patient's offer.
    const doctorPhone = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.phone);
    await doctorPhone.goto(`${base}/my-appointments`);
    await card(doctorPhone, appointmentId).getByRole('button', { name: 'Offer other times' }).click();
    const phoneOffered = await pickOnSecondDay(doctorPhone, 3);
    const phoneDialog = doctorPhone.getByRole('dialog', { name: 'Offer other times' });
    const send = await phoneDialog.getByRole('button', { name: 'Offer 3 times' }).boundingBox();
    assert.ok(send && send.x >= 0 && send.x + send.width <= VIEWPORTS.phone.width, 'the Offer button is within the phone screen');
    await screenshot(doctorPhone, 'propose-times-dialog');
    await phoneDialog.getByRole('button', { name: 'Offer 3 times' }).click();
    await phoneDialog.waitFor({ state: 'detached' });

    const patientPhone = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.phone);
    await patientPhone.goto(`${base}/my-appointments`);
    const phonePanel = card(patientPhone, appointmentId).getByTestId('proposal-panel');
    await phonePanel.waitFor();
    assert.equal(await phonePanel.getByTestId('proposed-time').count(), phoneOffered.length);
    const accept = await phonePanel.getByRole('button', { name: /^Accept / }).last().boundingBox();
    assert.ok(accept && accept.x + accept.width <= VIEWPORTS.phone.width, 'Accept is within the phone screen');
    await screenshot(patientPhone, 'propose-times-patient-panel');
  });
});
