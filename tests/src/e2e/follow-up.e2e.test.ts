import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { bearer, chromiumMissing, confirmedAppointment, demoProductInChromium, screenshot, signedInInIndia, VIEWPORTS } from './browser';



/** A call both joined (the patient first) and the doctor ended: the consultation completed. */
async function heldAndEnded(base: string, patient: Page, doctor: Page, appointmentId: string): Promise<void> {
  for (const page of [patient, doctor]) {
    const joined = await fetch(`${base}/api/v1/consultations/${appointmentId}/join`, { method: 'POST', headers: await bearer(page) });
    assert.equal(joined.status, 200, await joined.text());
  }
  const ended = await fetch(`${base}/api/v1/consultations/${appointmentId}/end`, { method: 'POST', headers: await bearer(doctor) });
  assert.equal(ended.status, 200, await ended.text());
}

const card = (page: Page, appointmentId: string) => page.locator(`[data-testid="appointment-card"][data-appointment-id="${appointmentId}"]`);

/**
 * Follow-ups (issue 35) as people do it: after a consultation the doctor's notes say a follow-up is required, within 7
 * days, free; the patient's My Appointments offers "Book follow-up (free until …)", whose dialog lists the doctor's
 * times in the window; the doctor's dashboard shows the request as a follow-up, with the earlier notes a click away.
 */
describe('a follow-up offered in the notes, booked by the patient, seen by the doctor', { skip: chromiumMissing }, () => {
  const suite = demoProductInChromium({ CONSULTATION_EARLY_JOIN_MINUTES: '1440', ICE_SERVERS: '[]' });

  it('offers, books and links the follow-up; the screens at 1280 and 390', async () => {
    const { base, browser } = suite;
    const doctor = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.desktop);
    const appointmentId = await confirmedAppointment(base, patient, doctor);
    await heldAndEnded(base, patient, doctor, appointmentId);

    // The doctor writes the notes from Recent consultations: a follow-up required shows the offer's two fields.
    await doctor.goto(`${base}/doctor-home`);
    const recent = doctor.getByTestId('recent-consultations');
    await recent.getByRole('button', { name: /^Add notes/i }).first().click();
    const notes = doctor.getByRole('dialog', { name: /notes/i });
    await notes.getByLabel('Chief complaint').fill('Fever for two days');
    await notes.getByRole('combobox', { name: /Follow-up required/ }).click();
    await doctor.getByRole('option', { name: 'Routine' }).click();
    const offer = notes.getByTestId('follow-up-offer');
    await offer.waitFor();
    assert.equal(await notes.getByLabel('Follow-up within').inputValue(), '7');
    assert.equal(await notes.getByLabel('Follow-up fee').inputValue(), '0');
    await offer.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'follow-up-notes-form');
    await notes.getByRole('button', { name: 'Save Notes' }).click();
    await notes.waitFor({ state: 'detached' });

    // On a phone: the notes form again (the saved follow-up shows its offer), and the patient's dialog, left unsent.
    const doctorPhone = await signedInInIndia(browser, base, 'doctor1@demo.telemed.local', VIEWPORTS.phone);
    await doctorPhone.goto(`${base}/doctor-home`);
    await doctorPhone.getByTestId('recent-consultations').getByRole('button', { name: /^Add notes/i }).first().click();
    const phoneNotes = doctorPhone.getByRole('dialog', { name: /notes/i });
    await phoneNotes.getByTestId('follow-up-offer').scrollIntoViewIfNeeded();
    await screenshot(doctorPhone, 'follow-up-notes-form');
    const phone = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.phone);
    await phone.goto(`${base}/my-appointments`);
    const phoneBook = card(phone, appointmentId).getByTestId('book-follow-up');
    await phoneBook.scrollIntoViewIfNeeded();
    await screenshot(phone, 'follow-up-book');
    await phoneBook.click();
    const phoneDialog = phone.getByRole('dialog', { name: 'Book a follow-up' });
    await phoneDialog.locator('[data-slot-id]').first().click();
    const requestButton = await phoneDialog.getByRole('button', { name: 'Request follow-up' }).boundingBox();
    assert.ok(requestButton && requestButton.x >= 0 && requestButton.x + requestButton.width <= VIEWPORTS.phone.width, 'the Request button is within the phone screen');
    await screenshot(phone, 'follow-up-dialog');
    await phoneDialog.getByRole('button', { name: 'Not now' }).click();
    await phoneDialog.waitFor({ state: 'detached' });

    // The patient: the completed consultation offers the follow-up, free until a date.
    await patient.goto(`${base}/my-appointments`);
    const consultation = card(patient, appointmentId);
    const book = consultation.getByTestId('book-follow-up');
    await book.waitFor();
    assert.match(await book.innerText(), /^Book follow-up \(free until .+\)$/i);
    await consultation.scrollIntoViewIfNeeded();
    await screenshot(patient, 'follow-up-my-appointments');
    await book.click();
    const dialog = patient.getByRole('dialog', { name: 'Book a follow-up' });
    await dialog.getByTestId('follow-up-window').getByText('Free of charge').waitFor();
    const slot = dialog.locator('[data-slot-id]').first();
    await slot.click();
    await dialog.getByTestId('follow-up-time').waitFor();
    await screenshot(patient, 'follow-up-dialog');
    await dialog.getByRole('button', { name: 'Request follow-up' }).click();
    await patient.getByText('Follow-up requested').waitFor();
    await consultation.getByTestId('follow-up-booked').waitFor();

    // The doctor's dashboard: the request says what it follows, and opens that consultation's notes.
    await doctor.goto(`${base}/doctor-home`);
    const request = doctor.locator('[data-testid="pending-request"]', { has: doctor.getByTestId('follow-up-of') });
    await request.waitFor();
    assert.match(await request.getByTestId('follow-up-of').innerText(), /Follow-up of the consultation on /);
    await request.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'follow-up-doctor-request');
    await request.getByRole('button', { name: 'View its notes' }).click();
    const earlier = doctor.getByTestId('earlier-notes');
    await earlier.getByText('Fever for two days').waitFor();
    await screenshot(doctor, 'follow-up-earlier-notes');
    await earlier.getByRole('button', { name: 'Close' }).click();

    // On a phone: the patient's card, the follow-up booked, and the doctor's request.
    await phone.goto(`${base}/my-appointments`);
    await card(phone, appointmentId).getByTestId('follow-up-booked').waitFor();
    await card(phone, appointmentId).scrollIntoViewIfNeeded();
    await screenshot(phone, 'follow-up-my-appointments');
    await doctorPhone.goto(`${base}/doctor-home`);
    await doctorPhone.getByTestId('follow-up-of').first().waitFor();
    await screenshot(doctorPhone, 'follow-up-doctor-request');
  });
});
