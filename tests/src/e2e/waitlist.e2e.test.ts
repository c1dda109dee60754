import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearer, chromiumMissing, demoProductInChromium, screenshot, signedInInIndia, VIEWPORTS } from './browser';

/** The page's global object, as the marker below uses it (the tests compile without the DOM's types). */
declare const window: object;



/** Tomorrow in India, as a schedule's day. */
const tomorrowInIndia = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() + 86_400_000));

/**
 * The waitlist (issue 35) as people meet it: a patient whose doctor has no time in the coming days joins the waitlist
 * from the doctor's card; the doctor opens a time; the patient's open home page shows it held for them, without a
 * reload, and they book it with a reason; the doctor has the request.
 */
describe('a patient waits for a time, is offered one live and books it', { skip: chromiumMissing }, () => {
  const suite = demoProductInChromium();

  it('joins the waitlist, sees the freed time held for them and books it', async () => {
    const { base, browser } = suite;
    const doctor = await signedInInIndia(browser, base, 'doctor5@demo.telemed.local', VIEWPORTS.desktop);
    await doctor.getByRole('heading', { name: 'Doctor Dashboard' }).waitFor();
    const doctorHeaders = await bearer(doctor);
    const { user_id: doctorId } = (await (await fetch(`${base}/api/v1/users/me`, { headers: doctorHeaders })).json()) as { user_id: string };
    const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.desktop);
    const patientHeaders = await bearer(patient);
    const subscribed = await fetch(`${base}/api/v1/users/subscribe`, { method: 'POST', headers: patientHeaders, body: JSON.stringify({ doctor_id: doctorId }) });
    assert.ok(subscribed.ok, await subscribed.text());
    // The doctor's week is taken off: nothing open in the coming days.
    const cleared = await fetch(`${base}/api/v1/schedule-v2/set_availability_v2/`, { method: 'POST', headers: doctorHeaders, body: JSON.stringify({ slots: [], timezone: 'Asia/Kolkata' }) });
    assert.ok(cleared.ok, await cleared.text());

    await patient.goto(`${base}/home`);
    const card = patient.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Kavya Reddy' });
    await card.getByText('No upcoming appointments available').waitFor();
    await card.getByRole('button', { name: 'Join the waitlist' }).click();
    const dialog = patient.getByRole('dialog', { name: 'Waitlist for Dr. Kavya Reddy' });
    await dialog.getByText(/held for you for 15 minutes/).waitFor();
    await screenshot(patient, 'waitlist-join');
    await dialog.getByRole('button', { name: 'Join', exact: true }).click();
    await patient.getByText('You are on the waitlist').first().waitFor();
    await card.getByTestId('waitlist-place').getByText(/^On the waitlist for /).waitFor();
    // On a phone, the same place on the doctor's card, within the screen.
    const phone = await signedInInIndia(browser, base, 'patient@demo.telemed.local', VIEWPORTS.phone);
    await phone.goto(`${base}/home`);
    const leave = phone.locator('[data-testid="my-doctor"]', { hasText: 'Dr. Kavya Reddy' }).getByRole('button', { name: 'Leave the waitlist' });
    await leave.waitFor();
    const box = await leave.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= VIEWPORTS.phone.width, 'the Leave button is within the phone screen');
    await screenshot(phone, 'waitlist-waiting');

    // The patient's page stays open and connected; a mark on the window tells a reload apart.
    await patient.locator('[data-testid="connection-light"][data-state="connected"]').waitFor();
    await patient.evaluate(() => Object.assign(window, { notReloaded: true }));
    const opened = await fetch(`${base}/api/v1/schedule-v2/set_availability_v2/`, {
      method: 'POST',
      headers: doctorHeaders,
      body: JSON.stringify({ slots: [{ slot_date: tomorrowInIndia(), start_time: '11:00:00', end_time: '11:30:00' }], timezone: 'Asia/Kolkata' }),
    });
    assert.ok(opened.ok, await opened.text());

    const offer = card.getByTestId('waitlist-offer');
    await offer.getByText('A time is held for you').waitFor();
    assert.match(await offer.innerText(), /Tomorrow.* 11:00 am\. Book it by/i);
    await patient.getByText('A time freed up on a waitlist you joined.').waitFor();
    assert.equal(await patient.evaluate(() => 'notReloaded' in window), true, 'the home page was not reloaded');
    await screenshot(patient, 'waitlist-offer');

    await offer.getByRole('button', { name: 'Book this time' }).click();
    const book = patient.getByRole('dialog', { name: 'Book the held time' });
    await book.getByLabel(/Reason for visit/).fill('Trouble sleeping for two weeks');
    await book.getByRole('button', { name: 'Send request' }).click();
    await patient.getByText('Request sent').first().waitFor();
    await book.waitFor({ state: 'detached' });
    await card.getByTestId('waitlist-place').waitFor({ state: 'detached' });

    await doctor.goto(`${base}/doctor-home`);
    const request = doctor.locator('[data-testid="pending-request"]', { hasText: 'Trouble sleeping for two weeks' });
    await request.waitFor();

    // On the phone too: the request is on the patient's appointments.
    await phone.goto(`${base}/my-appointments`);
    await phone.getByText('Awaiting approval').first().waitFor();
    await screenshot(phone, 'waitlist-booked');
  });
});
