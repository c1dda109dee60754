import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, signInWithGoogle, startDemoProduct } from '../../tests/src/e2e/browser';
import { debugLog } from '../../tests/src/e2e/call-page';
import { median } from './stats';

/**
 * The video call's setup time on loopback (issue 13, issue 31): both participants wait in their lobbies (as they do:
 * the patient usually opens it early), then Start Consultation is pressed in one of three orders: the doctor first
 * (the patient presses once the doctor's call is on screen), the patient first, or both at once. The time runs from the
 * last press to the first remote frame on both screens, in two browser contexts with Chromium's fake camera and
 * microphone. Beside it, the same browser connecting two bare RTCPeerConnections from pages that already hold their
 * media (no server, no signalling round trips, no page): the floor any product stands on.
 */

/** Joining opens a day early here, so that the demo doctor's next open slot can be joined now. */
const EARLY_JOIN = { CONSULTATION_EARLY_JOIN_MINUTES: '1440', ICE_SERVERS: '[]', LOG_LEVEL: 'error' };

export const JOIN_ORDERS = ['doctor_first', 'patient_first', 'together'] as const;
export type JoinOrder = (typeof JOIN_ORDERS)[number];
/** A run slower than this prints both pages' debug consoles, to say why. */
const SLOW_MS = 6000;

/** Frames the page's remote <video> has shown so far. */
const remoteFrames = (page: Page) =>
  page.evaluate(`(() => {
    const video = document.querySelector('[data-testid="remote-tile-video"]');
    return video ? video.getVideoPlaybackQuality().totalVideoFrames : 0;
  })()`) as Promise<number>;

async function firstRemoteFrame(page: Page, since: number, timeoutMs = 30_000): Promise<number> {
  for (;;) {
    if ((await remoteFrames(page)) > 0) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error('no remote frame');
    await page.waitForTimeout(10);
  }
}

async function token(page: Page): Promise<Record<string, string>> {
  const value = (await page.evaluate("sessionStorage.getItem('auth_token')")) as string;
  return { Authorization: `Bearer ${value}`, 'Content-Type': 'application/json' };
}

/** A confirmed appointment with the demo doctor, starting within a day (joinable now with EARLY_JOIN). */
async function confirmedAppointment(base: string, patient: Page, doctor: Page, taken: Set<number>): Promise<string> {
  const doctorHeaders = await token(doctor);
  const patientHeaders = await token(patient);
  const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: doctorHeaders })).json()) as { user_id: string };
  const { slots } = (await (await fetch(`${base}/api/v1/doctors/${me.user_id}/available-slots`, { headers: patientHeaders })).json()) as {
    slots: Array<{ slot_id: number; start_at: string }>;
  };
  const slot = slots.find((s) => !taken.has(s.slot_id) && Date.parse(s.start_at) - Date.now() < 23 * 3600_000);
  if (!slot) throw new Error('the demo doctor has no open slot within a day');
  taken.add(slot.slot_id);
  const requested = await fetch(`${base}/api/v1/appointments`, { method: 'POST', headers: patientHeaders, body: JSON.stringify({ slot_id: slot.slot_id, notes: 'Benchmark' }) });
  const { appointment_id } = (await requested.json()) as { appointment_id: string };
  await fetch(`${base}/api/v1/appointments/${appointment_id}/approve`, { method: 'POST', headers: doctorHeaders });
  return appointment_id;
}

async function lobbyReady(page: Page, base: string, appointmentId: string): Promise<void> {
  await page.goto(`${base}/video-call?appointment_id=${appointmentId}`);
  await page.locator('[data-testid="camera-readiness"][data-ready="true"]').waitFor({ timeout: 30_000 });
  await page.locator('button:has-text("Start Consultation"):enabled').waitFor({ timeout: 30_000 });
}

const startButton = (page: Page) => page.getByRole('button', { name: 'Start Consultation' });

/** Presses Start Consultation in the given order; answers when the last press happened. */
async function press(order: JoinOrder, doctor: Page, patient: Page): Promise<number> {
  if (order === 'together') {
    const started = performance.now();
    await Promise.all([startButton(doctor).click(), startButton(patient).click()]);
    return started;
  }
  const [first, second] = order === 'doctor_first' ? [doctor, patient] : [patient, doctor];
  await startButton(first).click();
  await first.getByTestId('call-view').waitFor();
  const started = performance.now();
  await startButton(second).click();
  return started;
}

/** One server per order: the demo doctor's slots within a day are enough for one order's runs. */
async function productRuns(browser: Browser, runs: number, order: JoinOrder): Promise<number[]> {
  const { server, base } = await startDemoProduct(EARLY_JOIN);
  const taken = new Set<number>();
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) times.push(await productRun(browser, order, base, taken));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  return times;
}

/** One call: both in their lobbies, the presses in `order`, then the time to the first remote frame on both screens. */
async function productRun(browser: Browser, order: JoinOrder, base: string, taken: Set<number>): Promise<number> {
  const contexts = await Promise.all([0, 1].map(() => browser.newContext({ permissions: ['camera', 'microphone'], timezoneId: 'Asia/Kolkata' })));
  try {
    const [doctor, patient] = await Promise.all(contexts.map((c) => c.newPage()));
    await signInWithGoogle(doctor!, base, 'doctor1@demo.telemed.local');
    await signInWithGoogle(patient!, base, 'patient@demo.telemed.local');
    const id = await confirmedAppointment(base, patient!, doctor!, taken);
    await lobbyReady(patient!, base, id);
    await lobbyReady(doctor!, base, id);
    const started = await press(order, doctor!, patient!);
    const [onPatient, onDoctor] = await Promise.all([firstRemoteFrame(patient!, started), firstRemoteFrame(doctor!, started)]);
    const time = Math.max(onPatient, onDoctor);
    if (time > SLOW_MS) {
      process.stderr.write(`first-frame ${order}: ${Math.round(time)} ms (patient ${Math.round(onPatient)}, doctor ${Math.round(onDoctor)}); the debug consoles:\n`);
      for (const [who, page] of [['doctor', doctor!], ['patient', patient!]] as const) process.stderr.write(`--- ${who}\n${await debugLog(page)}\n`);
    }
    await patient!.getByRole('button', { name: 'End Call' }).click().catch(() => undefined);
    return time;
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
}

/** Two bare peer connections in two contexts, media already held, SDP handed across by the test: the floor. */
async function bareRuns(browser: Browser, runs: number): Promise<number[]> {
  const page = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><video autoplay playsinline muted></video>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(page.address() as AddressInfo).port}/`;
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const contexts = await Promise.all([0, 1].map(() => browser.newContext({ permissions: ['camera', 'microphone'] })));
      try {
        const [a, b] = await Promise.all(contexts.map((c) => c.newPage()));
        for (const p of [a!, b!]) {
          await p.goto(url);
          await p.evaluate(`(async () => {
            window.media = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 1280, height: 720 } });
            window.pc = new RTCPeerConnection({ iceServers: [] });
            for (const track of window.media.getTracks()) window.pc.addTrack(track, window.media);
            window.pc.ontrack = (e) => { document.querySelector('video').srcObject = e.streams[0]; };
          })()`);
        }
        const gathered = `new Promise((r) => { if (window.pc.iceGatheringState === 'complete') r(); else window.pc.onicegatheringstatechange = () => window.pc.iceGatheringState === 'complete' && r(); })`;
        const started = performance.now();
        const offer = (await a!.evaluate(`(async () => { await window.pc.setLocalDescription(await window.pc.createOffer()); await ${gathered}; return JSON.stringify(window.pc.localDescription); })()`)) as string;
        const answer = (await b!.evaluate(`(async () => { await window.pc.setRemoteDescription(${offer}); await window.pc.setLocalDescription(await window.pc.createAnswer()); await ${gathered}; return JSON.stringify(window.pc.localDescription); })()`)) as string;
        await a!.evaluate(`window.pc.setRemoteDescription(${answer})`);
        for (;;) {
          const frames = (await a!.evaluate("document.querySelector('video').getVideoPlaybackQuality().totalVideoFrames")) as number;
          if (frames > 0) break;
          if (performance.now() - started > 30_000) throw new Error('no remote frame');
          await a!.waitForTimeout(10);
        }
        times.push(performance.now() - started);
      } finally {
        await Promise.all(contexts.map((c) => c.close()));
      }
    }
  } finally {
    page.close();
  }
  return times;
}

/** Medians per order of joining (ms), the slowest of them as `first_frame_ms`, beside the bare floor. */
export async function firstFrame(runs: number, orders: readonly JoinOrder[] = JOIN_ORDERS) {
  if (chromiumMissing) return { skipped: chromiumMissing };
  const browser = await launchChromium();
  try {
    const product: Partial<Record<JoinOrder, number[]>> = {};
    const byOrder: Partial<Record<JoinOrder, number>> = {};
    for (const order of orders) {
      const times = await productRuns(browser, runs, order);
      product[order] = times;
      byOrder[order] = Math.round(median(times));
    }
    const bare = await bareRuns(browser, runs);
    return {
      runs,
      first_frame_ms: Math.max(...Object.values(byOrder)),
      by_order_ms: byOrder,
      bare_first_frame_ms: Math.round(median(bare)),
      product,
      bare,
    };
  } finally {
    await browser.close();
  }
}
