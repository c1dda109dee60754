import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page, WebSocketRoute } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import type { startServerProcess } from '../support/processes';
import { firstFramesWithin, remoteVideoPlays, startEnabled } from './call-page';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct, bearer, confirmedAppointment } from './browser';

/**
 * The video consultation held for real between two browsers (issue 13): the patient and the doctor join the same
 * consultation through Join now / Join Now and the lobby, each sees and hears the other (Chromium's fake camera and
 * microphone; remote frames counted on the <video>), mute and video-off reach the other side, chat arrives, End Call
 * takes both to the summary; then, on a server with a 30-second limit, the server's auto-end takes both to the
 * auto-ended summary. Screenshots of lobby, call and summary at desktop and phone widths.
 */

const context: BrowserContextOptions = { timezoneId: 'Asia/Kolkata', locale: 'en-IN', acceptDownloads: true, permissions: ['camera', 'microphone'] };
/** Joining opens a day early here, so that the demo's next open slot (at most 14 hours away) can be joined now. */
const EARLY_JOIN = { CONSULTATION_EARLY_JOIN_MINUTES: '1440', ICE_SERVERS: '[]', CONSULTATION_SWEEP_INTERVAL_MS: '1000' };

type Server = Awaited<ReturnType<typeof startServerProcess>>;
/**
 * From the last Start Consultation to the other side's first frame on both screens: about 1.5 to 3.5 s on this
 * loaded two-core machine (a bare connection takes 0.5 s); the first join of issue 31 took 12 s.
 */
const FIRST_FRAME_WITHIN_MS = 6000;

describe('video consultation between two browsers', { skip: chromiumMissing }, () => {
  let browser: Browser;
  const servers: Server[] = [];
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const problems: string[] = [];

  /** axe (WCAG 2.1 A and AA) on the screen as it is, and nothing wider than the window. */
  async function audit(page: Page, label: string): Promise<void> {
    const kind = (page.viewportSize()?.width ?? 1280) < 600 ? 'phone' : 'desktop';
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) problems.push(`${kind} ${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    if (overflow > 1) problems.push(`${kind} ${label}: the page is ${overflow}px wider than the window`);
  }

  async function signedIn(base: string, email: string, viewport: { width: number; height: number }, prepare?: (browserContext: BrowserContext) => Promise<void>, timezoneId = context.timezoneId): Promise<Page> {
    const browserContext = await browser.newContext({ ...context, viewport, timezoneId });
    contexts.push(browserContext);
    await prepare?.(browserContext);
    const page = await browserContext.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signInWithGoogle(page, base, email);
    return page;
  }

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('both join through the real screens, see and hear each other, mute, stop video, chat, and End Call takes both to the summary', async () => {
    const { server, base } = await startDemoProduct(EARLY_JOIN);
    servers.push(server);
    const doctor = await signedIn(base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    // A patient whose browser is in UTC (abroad): the call screens read in their zone, as My Appointments does.
    const patient = await signedIn(base, 'patient@demo.telemed.local', VIEWPORTS.phone, undefined, 'UTC');
    const appointmentId = await confirmedAppointment(base, patient, doctor);

    // The patient: My Appointments → Join now → the lobby, waiting for the doctor.
    await patient.goto(`${base}/my-appointments`);
    const card = patient.locator('[data-testid="appointment-card"]', { hasText: 'Dr. Ananya Sharma' });
    const cardTime = /(\d{1,2}:\d\d (am|pm)) –/.exec(await card.innerText())?.[1];
    assert.ok(cardTime, `My Appointments shows the time: ${await card.innerText()}`);
    await card.getByRole('button', { name: 'Join now' }).click();
    await patient.waitForURL(new RegExp(`/video-call\\?appointment_id=${appointmentId}$`));
    await patient.getByText('Ready to connect').waitFor();
    await patient.locator('[data-testid="camera-readiness"][data-ready="true"]').waitFor();
    await patient.locator('[data-testid="microphone-readiness"][data-ready="true"]').waitFor();
    await patient.getByTestId('waiting-for-doctor').getByText('Your doctor has not joined yet. You can start now and wait for them in the consultation.').waitFor();
    // Which consultation this is: the doctor's name and the booked time, in the seeds' phrase.
    assert.match(await patient.getByTestId('lobby-appointment').innerText(), /^Consultation with Dr\. Ananya Sharma · (Today|Tomorrow) at \d{1,2}:\d\d (am|pm)$/);
    assert.ok((await patient.getByTestId('lobby-appointment').innerText()).endsWith(` at ${cardTime}`), `the lobby shows the time My Appointments shows (${cardTime})`);
    // Seed 001 §2: disabled only while joining or without camera and microphone; a patient may go in first (issue 31).
    await startEnabled(patient).waitFor();
    assert.ok(await patient.getByText('Video Consultation').isVisible());
    assert.ok(await patient.getByText('End-to-End Encrypted').isVisible());
    await screenshot(patient, 'video-lobby-waiting');
    await audit(patient, 'lobby');
    await patient.setViewportSize(VIEWPORTS.desktop);
    await screenshot(patient, 'video-lobby-waiting');
    await patient.setViewportSize(VIEWPORTS.phone);

    // The doctor: the dashboard shows live that the patient is waiting in the lobby → Go to call → the lobby → Start Consultation.
    await doctor.goto(`${base}/doctor-home`);
    const row = doctor.locator('[data-testid="upcoming-appointment"]', { hasText: 'Priya Patel' });
    await row.getByTestId('patient-waiting').waitFor({ timeout: 10_000 });
    const waitingAlert = doctor.getByTestId('lobby-waiting').getByText('Priya Patel is waiting in the consultation lobby');
    await waitingAlert.waitFor();
    await screenshot(doctor, 'doctor-home-patient-waiting');
    await doctor.setViewportSize(VIEWPORTS.phone);
    await screenshot(doctor, 'doctor-home-patient-waiting');
    await audit(doctor, 'dashboard with a patient waiting');
    await doctor.setViewportSize(VIEWPORTS.desktop);
    await audit(doctor, 'dashboard with a patient waiting');
    await doctor.getByTestId('lobby-waiting').getByRole('button', { name: 'Go to call' }).click();
    await doctor.waitForURL(new RegExp(`/video-call\\?appointment_id=${appointmentId}$`));
    await doctor.getByText('Healthcare Provider').first().waitFor();
    const start = doctor.getByRole('button', { name: 'Start Consultation' });
    await doctor.locator('[data-testid="camera-readiness"][data-ready="true"]').waitFor();
    await startEnabled(doctor).waitFor({ timeout: 15_000 });
    // The meter moves with the fake microphone's beeps.
    await doctor.locator('[data-testid="mic-level"]:not([aria-valuenow="0"])').waitFor({ timeout: 10_000 });
    await screenshot(doctor, 'video-lobby');
    await audit(doctor, 'lobby');
    await start.click();
    await doctor.getByTestId('call-view').waitFor();
    await doctor.getByTestId('waiting-for-other').waitFor();

    // The patient's lobby says the doctor is in (told over the socket); the video arrives within seconds of joining
    // them (issue 31: the doctor's first offer, kept by the patient's lobby, was answered on a replaced connection,
    // and the video came only after a 10-second watchdog).
    await patient.getByTestId('other-in-call').getByText('Dr. Ananya Sharma is in the consultation. Press Start Consultation to join.').waitFor();
    const pressed = performance.now();
    await patient.getByRole('button', { name: 'Start Consultation' }).click();
    await patient.getByTestId('call-view').waitFor();
    await firstFramesWithin([patient, doctor], pressed, FIRST_FRAME_WITHIN_MS);

    for (const page of [patient, doctor]) {
      await page.locator('[data-testid="call-status"][data-status="connected"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('participant-count').getByText('2 participants').waitFor({ timeout: 15_000 });
    }
    await remoteVideoPlays(patient);
    await remoteVideoPlays(doctor);
    assert.match(await doctor.getByTestId('call-duration').innerText(), /^\d\d:\d\d/);
    assert.ok((await doctor.getByTestId('remote-tile').innerText()).includes('Priya Patel'));
    assert.ok((await doctor.getByTestId('local-tile').innerText()).includes('(You)'));

    // Mute and video-off reach the other side.
    await patient.getByRole('button', { name: 'Mute' }).click();
    await doctor.getByTestId('remote-tile-muted').waitFor();
    await doctor.getByRole('button', { name: 'Stop Video' }).click();
    await patient.getByTestId('remote-tile-video-off').waitFor();
    await patient.locator('[data-testid="remote-tile"][data-video="false"]').waitFor();
    await doctor.getByRole('button', { name: 'Start Video' }).click();
    await patient.locator('[data-testid="remote-tile"][data-video="true"]').waitFor();
    await patient.getByRole('button', { name: 'Unmute' }).click();
    await doctor.locator('[data-testid="remote-tile"][data-audio="true"]').waitFor();

    // Chat: through the API, pushed to the other side.
    await patient.getByRole('textbox', { name: 'Message' }).fill('Namaste doctor, the fever is 101°F since yesterday');
    await patient.getByRole('button', { name: 'Send message' }).click();
    await doctor.getByTestId('chat-messages').getByText('Namaste doctor, the fever is 101°F since yesterday').waitFor();
    await doctor.getByRole('textbox', { name: 'Message' }).fill('Please take paracetamol <b>650</b>');
    await doctor.keyboard.press('Enter');
    await patient.getByTestId('chat-messages').getByText('Please take paracetamol <b>650</b>').waitFor();

    // The debug console: connection facts, Close.
    await doctor.getByRole('button', { name: 'Settings' }).click();
    const debug = doctor.getByRole('dialog', { name: 'Debug Console' });
    await debug.getByText('Joined the consultation').waitFor();
    const token = ((await bearer(doctor)).Authorization ?? '').slice('Bearer '.length);
    assert.ok(token.length > 20 && !(await debug.innerText()).includes(token), 'no token in the debug console');
    await debug.getByRole('button', { name: 'Close' }).click();

    // The app's own navigation asks before it leaves the call (the doctor's header link, the patient's bottom bar on a
    // phone); staying keeps the call as it was.
    await doctor.getByRole('banner').getByRole('link', { name: 'My Appointments' }).click();
    await doctor.getByRole('dialog', { name: 'Leave the consultation?' }).getByRole('button', { name: 'Stay in call' }).click();
    await patient.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home' }).click();
    const leaveQuestion = patient.getByRole('dialog', { name: 'Leave the consultation?' });
    await leaveQuestion.getByRole('button', { name: 'Leave call' }).waitFor();
    await screenshot(patient, 'video-call-leave-question');
    await leaveQuestion.getByRole('button', { name: 'Stay in call' }).click();
    for (const page of [doctor, patient]) {
      await page.getByRole('dialog', { name: 'Leave the consultation?' }).waitFor({ state: 'detached' });
      assert.match(page.url(), /\/video-call\?appointment_id=/, 'still on the call page');
    }
    await remoteVideoPlays(doctor);
    assert.equal(await doctor.getByTestId('participant-count').innerText(), '2 participants');

    // The browser's Back button asks the same question: 'Stay in call' keeps the call (and the next Back asks again),
    // 'Leave call' goes back to the page the call was joined from, where Join now brings the person back.
    await doctor.goBack();
    const doctorQuestion = doctor.getByRole('dialog', { name: 'Leave the consultation?' });
    await doctorQuestion.getByRole('button', { name: 'Stay in call' }).click();
    await doctorQuestion.waitFor({ state: 'detached' });
    assert.match(doctor.url(), /\/video-call\?appointment_id=/, 'Back, then Stay in call: still on the call page');
    await remoteVideoPlays(doctor);
    assert.equal(await doctor.getByTestId('participant-count').innerText(), '2 participants');
    const patientQuestion = patient.getByRole('dialog', { name: 'Leave the consultation?' });
    await patient.goBack();
    await patientQuestion.getByRole('button', { name: 'Stay in call' }).click();
    await patientQuestion.waitFor({ state: 'detached' });
    assert.match(patient.url(), /\/video-call\?appointment_id=/, 'Back, then Stay in call: still on the call page');
    await patient.goBack();
    await patientQuestion.getByRole('button', { name: 'Leave call' }).click();
    await patient.waitForURL(/\/my-appointments$/);
    await doctor.getByTestId('participant-count').getByText('1 participant', { exact: true }).waitFor({ timeout: 15_000 });
    await patient.locator('[data-testid="appointment-card"]', { hasText: 'Dr. Ananya Sharma' }).getByRole('button', { name: 'Join now' }).click();
    await startEnabled(patient).waitFor({ timeout: 30_000 });
    await patient.getByRole('button', { name: 'Start Consultation' }).click();
    await patient.getByTestId('call-view').waitFor();
    await doctor.getByTestId('participant-count').getByText('2 participants').waitFor({ timeout: 15_000 });
    await remoteVideoPlays(doctor);

    // The doctor on a phone scrolls down to the notes: the patient stays in sight, small in a corner (its own frames
    // playing, muted), and a tap on it scrolls back to the call.
    await doctor.setViewportSize(VIEWPORTS.phone);
    await doctor.getByRole('textbox', { name: 'Consultation notes' }).scrollIntoViewIfNeeded();
    await doctor.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const mini = doctor.getByRole('button', { name: 'Back to the call with Priya Patel' });
    await mini.waitFor({ timeout: 10_000 });
    const miniFrames = async () => (await doctor.evaluate(`document.querySelector('[data-testid="mini-remote-video"]').getVideoPlaybackQuality().totalVideoFrames`)) as number;
    // Its frame count grows: polled, as remoteVideoPlays does (one fixed second missed it once on a loaded machine).
    const firstMiniFrames = await miniFrames();
    let miniPlayed = false;
    for (const deadline = Date.now() + 10_000; !miniPlayed && Date.now() < deadline; ) {
      await doctor.waitForTimeout(250);
      miniPlayed = (await miniFrames()) >= firstMiniFrames + 5;
    }
    assert.ok(miniPlayed, `the small picture plays (frames ${firstMiniFrames} → ${await miniFrames()})`);
    assert.equal(await doctor.evaluate(`document.querySelector('[data-testid="mini-remote-video"]').muted`), true);
    // At the very end of the page what ends it (the prescription builder, an issued prescription's Download) lies above
    // the small picture, not under it.
    await doctor.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const panelBox = await doctor.getByTestId('call-records-panel').boundingBox();
    const miniBox = await mini.boundingBox();
    assert.ok(panelBox && miniBox && panelBox.y + panelBox.height <= miniBox.y, `the panel ends above the small picture (${JSON.stringify({ panelBox, miniBox })})`);
    await screenshot(doctor, 'video-call-notes-with-patient-in-sight');
    await mini.click();
    await mini.waitFor({ state: 'detached', timeout: 10_000 });
    await doctor.setViewportSize(VIEWPORTS.desktop);

    // A reload rejoins the same consultation: the duration goes on from the server's start, the video comes back.
    await patient.reload();
    // A reload loads the app again before the lobby can start: on two busy cores that alone has taken over 15 s.
    await startEnabled(patient).waitFor({ timeout: 30_000 });
    await patient.getByRole('button', { name: 'Start Consultation' }).click();
    await patient.getByTestId('call-view').waitFor();
    assert.notEqual(await patient.getByTestId('call-duration').innerText(), '00:00', 'the duration continues');
    await remoteVideoPlays(patient);
    await remoteVideoPlays(doctor);
    await patient.getByTestId('chat-messages').getByText('Please take paracetamol <b>650</b>').waitFor();
    await screenshot(doctor, 'video-call');
    await screenshot(patient, 'video-call');
    await audit(doctor, 'call');
    await audit(patient, 'call');

    // End Call (title 'End consultation') by the doctor: both see the summary.
    const end = doctor.getByRole('button', { name: 'End Call' });
    assert.equal(await end.getAttribute('title'), 'End consultation');
    await end.click();
    for (const page of [doctor, patient]) {
      await page.getByRole('heading', { name: 'Consultation Complete' }).waitFor({ timeout: 15_000 });
      await page.getByTestId('summary-subtitle').getByText('Thank you for using Telemed').waitFor();
      await page.getByTestId('summary-participants').getByText('You', { exact: true }).waitFor();
    }
    await doctor.getByText('Doctor Actions').waitFor();
    await patient.getByText('Patient Actions').waitFor();
    assert.match(await doctor.getByTestId('summary-duration').innerText(), /^\d\d:\d\d$/);
    assert.equal(await doctor.getByTestId('summary-participants').locator('li').count(), 2);
    // One call start, each in their own zone: the doctor's India time is the patient's UTC time plus 5:30.
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
    const doctorStart = await doctor.getByTestId('summary-start-time').innerText();
    const patientStart = await patient.getByTestId('summary-start-time').innerText();
    assert.equal((minutes(doctorStart) - minutes(patientStart) + 1440) % 1440, 330, `doctor ${doctorStart} (India), patient ${patientStart} (UTC)`);
    await doctor.waitForTimeout(500); // the fade-in
    await screenshot(doctor, 'video-summary');
    await screenshot(patient, 'video-summary');
    await audit(doctor, 'summary');
    await audit(patient, 'summary');

    const [download] = await Promise.all([patient.waitForEvent('download'), patient.getByRole('button', { name: 'Download Summary' }).click()]);
    assert.match(download.suggestedFilename(), /^consultation-summary-\d{4}-\d{2}-\d{2}\.txt$/);
    const text = await readFile((await download.path())!, 'utf8');
    for (const line of ['Patient: Priya Patel', 'Date: ', 'Start Time: ', 'End Time: ', 'Duration: ', 'Participants: 2', '- Dr. Ananya Sharma (Healthcare Provider)', '- Priya Patel (Patient)', 'Auto-ended: No', 'Generated: ']) {
      assert.ok(text.includes(line), `the summary file has "${line}":\n${text}`);
    }
    assert.ok(text.includes(`Start Time: ${patientStart}\n`), `the file's times are the screen's (${patientStart}):\n${text}`);
    assert.match(text, /Generated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/, 'generated in the patient’s zone');

    // The server's record: ended by the doctor, the appointment completed.
    const record = (await (await fetch(`${base}/api/v1/consultations/${appointmentId}`, { headers: await bearer(patient) })).json()) as { status: string; auto_ended: boolean };
    assert.deepEqual([record.status, record.auto_ended], ['ended', false]);

    await patient.getByRole('button', { name: 'Back to Home' }).click();
    await patient.waitForURL(/\/home$/);
    await doctor.getByRole('button', { name: 'Back to Home' }).click();
    await doctor.waitForURL(/\/doctor-home$/);
  });

  it('at the server’s limit (30 s here) the call ends on both sides with the auto-ended summary', async () => {
    const { server, base } = await startDemoProduct({ ...EARLY_JOIN, CONSULTATION_MAX_MINUTES: '0.5' });
    servers.push(server);
    // The other way round this time: the doctor on a phone, the patient on a desktop.
    const doctor = await signedIn(base, 'doctor1@demo.telemed.local', VIEWPORTS.phone);
    const patient = await signedIn(base, 'patient@demo.telemed.local', VIEWPORTS.desktop);
    const appointmentId = await confirmedAppointment(base, patient, doctor);

    await doctor.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await doctor.locator('[data-testid="camera-readiness"][data-ready="true"]').waitFor();
    await screenshot(doctor, 'video-lobby-doctor');
    await doctor.getByRole('button', { name: 'Start Consultation' }).click();
    await doctor.getByTestId('call-view').waitFor();

    await patient.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await startEnabled(patient).waitFor({ timeout: 15_000 });
    await screenshot(patient, 'video-lobby-patient');
    await patient.getByRole('button', { name: 'Start Consultation' }).click();
    await patient.getByTestId('call-view').waitFor();

    // Under five minutes from the start: the warning (once, dismissible) and the time left.
    const warning = patient.getByTestId('time-warning');
    await warning.waitFor();
    assert.match(await warning.innerText(), /^Your consultation will end in \d+ seconds\. Please wrap up your session\.$/);
    await patient.getByTestId('call-remaining').waitFor();
    await remoteVideoPlays(doctor, 15_000); // well within the 30 s, so that a failure can still read the call's log
    await screenshot(doctor, 'video-call-near-limit');
    await screenshot(patient, 'video-call-near-limit');
    await warning.getByRole('button', { name: 'Close' }).click();
    await warning.waitFor({ state: 'detached' });

    for (const page of [doctor, patient]) {
      await page.getByTestId('summary-subtitle').getByText('Your session ended automatically due to time limit').waitFor({ timeout: 60_000 });
      await page.getByTestId('summary-status').getByText('Auto-ended').waitFor();
    }
    assert.equal(await patient.getByTestId('time-warning').count(), 0);
    await doctor.waitForTimeout(500);
    await screenshot(doctor, 'video-summary-auto-ended');
    await screenshot(patient, 'video-summary-auto-ended');
    const record = (await (await fetch(`${base}/api/v1/consultations/${appointmentId}`, { headers: await bearer(doctor) })).json()) as { status: string; auto_ended: boolean; duration_seconds: number };
    assert.deepEqual([record.status, record.auto_ended, record.duration_seconds], ['ended', true, 30]);
  });

  it('a participant whose network drops for longer than the server’s grace (2 s here) comes back, and both see each other again', async () => {
    const GRACE_MS = 2000;
    const { server, base } = await startDemoProduct({ ...EARLY_JOIN, CONSULTATION_DISCONNECT_GRACE_MS: String(GRACE_MS) });
    servers.push(server);
    // The patient's notification sockets pass through a route the test can cut: Chromium's offline emulation stops
    // requests and new sockets' handshakes here, but neither an open WebSocket nor WebRTC's media (Playwright #4910).
    const routes: Array<{ page: WebSocketRoute; server: WebSocketRoute }> = [];
    let offline = false;
    const doctor = await signedIn(base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
    const patient = await signedIn(base, 'patient@demo.telemed.local', VIEWPORTS.desktop, (browserContext) =>
      browserContext.routeWebSocket(/\/ws\//, (ws) => {
        if (offline) return void ws.close({ code: 1006, reason: 'offline' });
        routes.push({ page: ws, server: ws.connectToServer() });
      }),
    );
    const appointmentId = await confirmedAppointment(base, patient, doctor);

    await doctor.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await startEnabled(doctor).waitFor({ timeout: 15_000 });
    await doctor.getByRole('button', { name: 'Start Consultation' }).click();
    await doctor.getByTestId('call-view').waitFor();
    await patient.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await startEnabled(patient).waitFor({ timeout: 15_000 });
    await patient.getByRole('button', { name: 'Start Consultation' }).click();
    await patient.getByTestId('call-view').waitFor();
    await remoteVideoPlays(doctor);
    await remoteVideoPlays(patient);

    /** The patient's network drops: requests fail, the socket closes, new sockets cannot connect. */
    async function dropPatientNetwork() {
      offline = true;
      await patient.context().setOffline(true);
      for (const route of routes.splice(0)) {
        await route.server.close({ code: 4000, reason: 'network lost' }); // a code a page may send (1000 or 3000–4999)
        await route.page.close({ code: 1006, reason: 'network lost' });
      }
    }
    await dropPatientNetwork();
    // Past the grace the server records the patient as gone: the doctor sees them absent, not a frozen picture.
    await doctor.getByTestId('waiting-for-other').getByText('Priya Patel left the call. Waiting for them to join again').waitFor({ timeout: GRACE_MS + 10_000 });
    await doctor.getByTestId('participant-count').getByText('1 participant', { exact: true }).waitFor();
    assert.equal(await doctor.getByTestId('remote-tile').count(), 0, 'no remote tile while the patient is away');
    await doctor.waitForTimeout(GRACE_MS); // well past the grace, as a long drop is

    // The network is back: the patient's page reconnects, joins again, and the call is renegotiated on both sides.
    const back = Date.now();
    offline = false;
    await patient.context().setOffline(false);
    await doctor.getByTestId('participant-count').getByText('2 participants').waitFor({ timeout: 20_000 });
    await remoteVideoPlays(doctor, 30_000);
    await remoteVideoPlays(patient, 30_000);
    for (const page of [doctor, patient]) await page.locator('[data-testid="call-status"][data-status="connected"]').waitFor({ timeout: 5000 });
    // About 4 s here (socket back at once on the browser's 'online', join again, one offer and answer); the bound
    // leaves room for a loaded machine, and the old behaviour (the doctor's stale connection kept) never recovers.
    const recovered = Date.now() - back;
    assert.ok(recovered < 30_000, `both sides saw each other again ${recovered} ms after the network came back`);

    // The network drops again and the doctor ends the call meanwhile: back online, the patient's page reads the end it
    // missed and shows the summary, rather than a call with nobody in it until the limit.
    await dropPatientNetwork();
    await doctor.getByRole('button', { name: 'End Call' }).click();
    await doctor.getByRole('heading', { name: 'Consultation Complete' }).waitFor({ timeout: 15_000 });
    await patient.waitForTimeout(1000);
    assert.equal(await patient.getByTestId('call-view').count(), 1, 'offline, the patient has not heard of the end yet');
    offline = false;
    await patient.context().setOffline(false);
    await patient.getByRole('heading', { name: 'Consultation Complete' }).waitFor({ timeout: 20_000 });
    await patient.getByTestId('summary-subtitle').getByText('Thank you for using Telemed').waitFor();
  });

  it('the other side’s video arrives within seconds whoever presses Start Consultation first, or both at once (issue 31)', async () => {
    const { server, base } = await startDemoProduct(EARLY_JOIN);
    servers.push(server);
    const orders = ['patient first', 'doctor first', 'both at once'] as const;
    const took: string[] = [];
    for (const order of orders) {
      const doctor = await signedIn(base, 'doctor1@demo.telemed.local', VIEWPORTS.desktop);
      const patient = await signedIn(base, 'patient@demo.telemed.local', order === 'patient first' ? VIEWPORTS.phone : VIEWPORTS.desktop);
      const appointmentId = await confirmedAppointment(base, patient, doctor);
      // Both wait in their lobbies first, as they do: whatever one side sends early is kept by the other's page.
      for (const page of [patient, doctor]) {
        await page.goto(`${base}/video-call?appointment_id=${appointmentId}`);
        await startEnabled(page).waitFor({ timeout: 30_000 });
      }
      let pressed: number;
      if (order === 'both at once') {
        pressed = performance.now();
        await Promise.all([doctor, patient].map((page) => page.getByRole('button', { name: 'Start Consultation' }).click()));
      } else {
        const [first, second] = order === 'doctor first' ? [doctor, patient] : [patient, doctor];
        await first.getByRole('button', { name: 'Start Consultation' }).click();
        await first.getByTestId('call-view').waitFor();
        if (order === 'patient first') {
          // In the call before the doctor: waiting over their own picture, not a black tile, at both widths.
          const waiting = patient.getByTestId('waiting-for-other');
          await waiting.getByText('Waiting for Dr. Ananya Sharma to join…').waitFor();
          assert.equal(await patient.getByTestId('participant-count').innerText(), '1 participant');
          assert.equal(await patient.getByTestId('remote-tile').count(), 0, 'no remote tile while the doctor is not in');
          await screenshot(patient, 'video-call-waiting-for-doctor');
          await audit(patient, 'call, waiting for the doctor');
          await patient.setViewportSize(VIEWPORTS.desktop);
          await screenshot(patient, 'video-call-waiting-for-doctor');
          await audit(patient, 'call, waiting for the doctor');
          // The doctor's lobby says the patient is in; so does the dashboard, whose Go to call leads back to the lobby.
          await doctor.getByTestId('other-in-call').getByText('Priya Patel is in the consultation. Press Start Consultation to join.').waitFor({ timeout: 15_000 });
          await doctor.goto(`${base}/doctor-home`);
          const waitingAlert = doctor.getByTestId('lobby-waiting');
          // Presence is soft state said again every 10 s (LOBBY_REFRESH_MS): a notice a loaded machine lost shows within two.
          await waitingAlert.getByText('Priya Patel is waiting in the consultation lobby').waitFor({ timeout: 25_000 });
          await waitingAlert.getByRole('button', { name: 'Go to call' }).click();
          await startEnabled(doctor).waitFor({ timeout: 30_000 });
        }
        pressed = performance.now();
        await second.getByRole('button', { name: 'Start Consultation' }).click();
      }
      const ms = await firstFramesWithin([doctor, patient], pressed, FIRST_FRAME_WITHIN_MS);
      took.push(`${order}: ${Math.round(ms)} ms`);
      await remoteVideoPlays(doctor);
      await remoteVideoPlays(patient);
      await doctor.getByRole('button', { name: 'End Call' }).click();
      await patient.getByRole('heading', { name: 'Consultation Complete' }).waitFor({ timeout: 15_000 });
      await Promise.all([doctor.context().close(), patient.context().close()]);
    }
    console.log(`first remote frame on both screens: ${took.join(', ')}`);
  });

  it('no page threw, and every screen passed axe at both widths', () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(problems, []);
  });
});
