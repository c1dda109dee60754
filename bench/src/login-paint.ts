import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startServerProcess } from '../../tests/src/support/processes';
import { CHROMIUM, ensureFrontendBuilt } from '../../tests/src/e2e/browser';
import { buildHistoryLog } from './history-log';
import { median } from './stats';

/** The sign-in button as the Hindi page says it (its catalogue's words). */
const HINDI_SIGN_IN = (JSON.parse(readFileSync(join(import.meta.dirname, '../../frontend/src/i18n/catalogues/hi/auth.json'), 'utf8')) as Record<string, string>)['auth.continueWithGoogle']!;

/** Chrome DevTools' "Fast 3G" preset: 562.5 ms round trip, about 1.44 Mbit/s down and 675 kbit/s up. */
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (750 * 1000) / 8 * 0.9 };

/** The largest contentful paint so far (buffered entries), with what it painted, read once the page has settled. */
const LARGEST_PAINT = `new Promise((resolve) => {
  let last = null;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) last = e; }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(last && { ms: last.startTime, element: (last.element?.tagName ?? '?') + ' ' + (last.element?.textContent ?? '').slice(0, 40) }), 500);
})`;

interface Paint {
  fcp_ms: number;
  lcp_ms: number;
  lcp_element: string;
  transferred_bytes: number;
  /** Requests including the page's HTML. */
  requests: number;
}

/**
 * One cold visit (a fresh browser context: nothing cached) on Fast 3G with a 4× slower CPU: first contentful paint,
 * largest contentful paint once `ready` shows, bytes and requests.
 */
async function paint(browser: Browser, url: string, ready: (page: Page) => Locator, compressed: boolean, locale = 'en-IN'): Promise<Paint> {
  // An Indian patient's phone: its width, time zone and language (the browser asks for it: Accept-Language).
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: 'Asia/Kolkata', locale });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    if (!compressed) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await ready(page).waitFor({ timeout: 120_000 });
    const lang = (await page.evaluate('document.documentElement.lang')) as string;
    if (lang !== locale.slice(0, 2)) throw new Error(`${url} was shown in ${lang}, not ${locale}`);
    const fcp = (await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")) as number | null;
    const lcp = (await page.evaluate(LARGEST_PAINT)) as { ms: number; element: string } | null;
    const resources = (await page.evaluate("performance.getEntriesByType('resource').map((r) => r.transferSize)")) as number[];
    return {
      fcp_ms: fcp ?? NaN,
      lcp_ms: lcp?.ms ?? NaN,
      lcp_element: lcp?.element ?? 'none',
      transferred_bytes: resources.reduce((n, b) => n + b, 0), // as before: what the page loads after its HTML
      requests: 1 + resources.length,
    };
  } finally {
    await context.close();
  }
}

/**
 * First contentful paint of /login on Fast 3G with a 4× slower CPU (an Indian patient's usual phone), in a fresh
 * browser context each run (nothing cached); beside it the same page fetched without compression, the figure before
 * compression was served. Then a registered doctor's public page (/{doctorId}, a week of open slots): its first and
 * largest contentful paint, the latter once the doctor's name shows.
 */
export async function loginPaint(work: string, runs: number) {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing` };
  ensureFrontendBuilt();
  const dir = mkdtempSync(join(work, 'paint-'));
  // Twenty doctors with a week of open slots each (33 a day), and no past appointments.
  const log = await buildHistoryLog(join(dir, 'events.db'), 0, { openDaysAhead: 7 });
  await log.store.close();
  const doctor = log.doctors[0]!;
  const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error', HOST: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const base = server.baseUrl.replace('127.0.0.1', 'localhost');
  try {
    const compressed: Paint[] = [];
    const identity: Paint[] = [];
    const doctorPage: Paint[] = [];
    const hindiLogin: Paint[] = [];
    const hindiDoctorPage: Paint[] = [];
    const signIn = (page: Page) => page.getByRole('button', { name: 'Continue with Google' });
    const hindiSignIn = (page: Page) => page.getByRole('button', { name: HINDI_SIGN_IN });
    const doctorName = (page: Page) => page.getByRole('heading', { name: `Dr ${doctor.number}`, exact: true });
    for (let i = 0; i < runs; i += 1) {
      compressed.push(await paint(browser, `${base}/login`, signIn, true));
      identity.push(await paint(browser, `${base}/login`, signIn, false));
      doctorPage.push(await paint(browser, `${base}/${doctor.id}`, doctorName, true));
      // The same pages for a browser that asks for Hindi (issue 33), in the same run.
      hindiLogin.push(await paint(browser, `${base}/login`, hindiSignIn, true, 'hi-IN'));
      hindiDoctorPage.push(await paint(browser, `${base}/${doctor.id}`, doctorName, true, 'hi-IN'));
    }
    const kib = (rows: Paint[]) => median(rows.map((r) => r.transferred_bytes)) / 1024;
    return {
      fcp_ms: median(compressed.map((r) => r.fcp_ms)),
      transferred_kib: kib(compressed),
      uncompressed_fcp_ms: median(identity.map((r) => r.fcp_ms)),
      uncompressed_transferred_kib: kib(identity),
      doctor_page_fcp_ms: median(doctorPage.map((r) => r.fcp_ms)),
      doctor_page_lcp_ms: median(doctorPage.map((r) => r.lcp_ms)),
      doctor_page_transferred_kib: kib(doctorPage),
      doctor_page_requests: median(doctorPage.map((r) => r.requests)),
      hindi_fcp_ms: median(hindiLogin.map((r) => r.fcp_ms)),
      hindi_transferred_kib: kib(hindiLogin),
      hindi_doctor_page_fcp_ms: median(hindiDoctorPage.map((r) => r.fcp_ms)),
      hindi_doctor_page_lcp_ms: median(hindiDoctorPage.map((r) => r.lcp_ms)),
      hindi_doctor_page_transferred_kib: kib(hindiDoctorPage),
      runs: compressed,
      uncompressed_runs: identity,
      doctor_page_runs: doctorPage,
      hindi_runs: hindiLogin,
      hindi_doctor_page_runs: hindiDoctorPage,
    };
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await server.exited;
  }
}
