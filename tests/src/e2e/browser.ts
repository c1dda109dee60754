import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort, repoRoot, startServerProcess } from '../support/processes';
import { tmpDataDir } from '../support/test-app';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM) ? false : `not run: ${CHROMIUM} is missing (apt-get install -y chromium)`;

/** Debian's Chromium, never a downloaded browser, with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  });
}

/** The frontend the server serves (`FRONTEND_DIST`, else `frontend/dist`): built when missing (CI builds it before the tests). */
export function ensureFrontendBuilt(): void {
  const dist = process.env.FRONTEND_DIST;
  if (dist) {
    if (!existsSync(join(dist, 'index.html'))) execSync(`npx vite build --outDir ${JSON.stringify(dist)} --emptyOutDir`, { cwd: join(repoRoot, 'frontend'), stdio: 'ignore' });
    return;
  }
  if (!existsSync(join(repoRoot, 'frontend/dist/index.html'))) execSync('npm run build -w frontend', { cwd: repoRoot, stdio: 'ignore' });
}

export const SCREENSHOTS = join(repoRoot, 'tests/e2e/screenshots');
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export async function screenshot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  const kind = size && size.width < 600 ? 'phone' : 'desktop';
  await page.waitForTimeout(150); // let React's passive effects settle (e.g. a filled field's label)
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${kind}.png`), fullPage: true });
}

/**
 * Signs in through "Continue with Google" (`googleButton`: its name in the language the page is in) and the local
 * provider's login and consent pages.
 */
export async function signInWithGoogle(page: Page, baseUrl: string, email: string, options: { screenshots?: boolean; googleButton?: string } = {}): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: options.googleButton ?? 'Continue with Google' }).click();
  await page.waitForURL(/\/oidc-login\//);
  if (options.screenshots) await screenshot(page, 'identity-provider-sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (options.screenshots) await screenshot(page, 'identity-provider-consent');
  await page.getByRole('button', { name: 'Continue' }).click();
  // Seed 000: doctors land on /doctor-home, everyone else (a clinic's admin too) on /home.
  await page.waitForURL(/\/(home|doctor-home|institutions)$/, { timeout: 15_000 });
}

/**
 * Sends the request on the confirm page. A patient without a current consent (a new account) first ticks the box under
 * the privacy notice: agreeing is its own step. The button is enabled once the consents (and the notice) have loaded.
 */
export async function sendRequest(page: Page): Promise<void> {
  const send = page.getByRole('button', { name: 'Send Request', exact: true });
  await page.locator('button:has-text("Send Request"):enabled').waitFor();
  const notice = page.getByTestId('consent-notice');
  if ((await notice.count()) > 0) await notice.getByRole('checkbox', { name: 'I have read the privacy notice and I agree to it' }).check();
  await send.click();
}

/** The product with its demo data on a free port, served from localhost (a secure context), for a browser test. */
export async function startDemoProduct(env: Record<string, string> = {}) {
  ensureFrontendBuilt();
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = env.DATA_DIR ?? tmpDataDir();
  const server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'on', PORT: String(port), PUBLIC_URL: base, HOST: '127.0.0.1', ...env });
  return { server, base, dataDir };
}

/**
 * The demo product (startDemoProduct) and Chromium for the suite it is called in: started before its tests, stopped
 * after them. Its fields are there once the suite's tests run.
 */
export function demoProductInChromium(env: Record<string, string> = {}) {
  const suite = {} as Awaited<ReturnType<typeof startDemoProduct>> & { browser: Browser };
  before(async () => {
    Object.assign(suite, await startDemoProduct(env));
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.child.kill('SIGTERM');
    await suite.server?.exited;
  });
  return suite;
}

/**
 * A new page in `context` whose troubles are collected: every console error (a CSP violation is reported as one) and
 * uncaught page error.
 */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await context.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  return { page, problems };
}

/** The bearer headers of the signed-in app in this page (its session token). */
export async function bearer(page: Page): Promise<Record<string, string>> {
  const token = (await page.evaluate("sessionStorage.getItem('auth_token')")) as string | null;
  assert.ok(token, 'signed in');
  return { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
}

/**
 * The patient requests the demo doctor's next open slot (within a day, so that a consultation can be joined now with
 * an early-join window of a day) and the doctor approves it: a confirmed appointment's id.
 */
export async function confirmedAppointment(base: string, patient: Page, doctor: Page): Promise<string> {
  const doctorHeaders = await bearer(doctor);
  const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: doctorHeaders })).json()) as { user_id: string };
  const patientHeaders = await bearer(patient);
  const { slots } = (await (await fetch(`${base}/api/v1/doctors/${me.user_id}/available-slots`, { headers: patientHeaders })).json()) as { slots: Array<{ slot_id: number; start_at: string }> };
  const slot = slots.find((s) => Date.parse(s.start_at) - Date.now() < 23 * 3600_000);
  assert.ok(slot, 'the demo doctor has an open slot within a day');
  const requested = await fetch(`${base}/api/v1/appointments`, { method: 'POST', headers: patientHeaders, body: JSON.stringify({ slot_id: slot.slot_id, notes: 'Fever for two days' }) });
  assert.equal(requested.status, 201, await requested.clone().text());
  const { appointment_id } = (await requested.json()) as { appointment_id: string };
  const approved = await fetch(`${base}/api/v1/appointments/${appointment_id}/approve`, { method: 'POST', headers: doctorHeaders });
  assert.equal(approved.status, 200, await approved.text());
  return appointment_id;
}

/** A message of a language's catalogue (frontend/src/i18n/catalogues), as the screens show it: what a test finds by. */
export function catalogueMessage(language: string, feature: string, id: string): string {
  const messages = JSON.parse(readFileSync(join(repoRoot, `frontend/src/i18n/catalogues/${language}/${feature}.json`), 'utf8')) as Record<string, string>;
  const text = messages[id];
  assert.ok(text !== undefined, `${language}/${feature}.json has ${id}`);
  return text;
}

/** A browser in India (its zone and locale) at a viewport's size, signed in by the local Google as `email`. */
export const IN_INDIA = { timezoneId: 'Asia/Kolkata', locale: 'en-IN' } as const;
export async function signedInInIndia(browser: Browser, base: string, email: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ ...IN_INDIA, viewport })).newPage();
  await signInWithGoogle(page, base, email);
  return page;
}
