import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { freePort, runNpm, startServerProcess } from '../support/processes';
import { tmpDataDir } from '../support/test-app';
import { VIEWPORTS, chromiumMissing, ensureFrontendBuilt, launchChromium, screenshot, signInWithGoogle } from './browser';

// The browser globals used inside page.evaluate, typed here: the tests compile without the DOM library.
interface BrowserElement {
  tagName: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  offsetHeight: number;
  getAttribute(name: string): string | null;
  closest(selector: string): BrowserElement | null;
  getClientRects(): { length: number };
}
declare const document: {
  activeElement: BrowserElement | null;
  body: BrowserElement;
  documentElement: { scrollWidth: number };
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll<E extends BrowserElement = BrowserElement>(selector: string): Iterable<E>;
};
type HTMLElement = BrowserElement;
declare const window: { innerWidth: number };
declare const sessionStorage: { getItem(key: string): string | null };
declare function getComputedStyle(element: BrowserElement): { outlineStyle: string; outlineWidth: string; boxShadow: string; lineHeight: string };

/** WCAG 2.1 A and AA: the rules every page must pass. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Names of 40 characters and more: every layout must hold them at 390 px. */
const LONG_DOCTOR_NAME = 'Dr. Venkata Subrahmanya Lakshminarayanan';
const LONG_PATIENT_EMAIL = 'venkata.subrahmanya.lakshminarayanan.iyer@example.in';
const ADMIN = { email: 'ops@telemed.example.in', password: 'a long enough passphrase' };

type Role = 'anonymous' | 'patient' | 'doctor' | 'clinicAdmin' | 'platformAdmin';

/** Calls the API from a signed-in page with its own session token. */
async function apiFrom(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = sessionStorage.getItem('auth_token');
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.status;
    },
    { method, path, body },
  );
}

/** Waits until the page has its heading and no spinner, so axe sees what a person sees. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.locator('h1').first().waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => !document.querySelector('.MuiCircularProgress-root'), undefined, { timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300); // transitions (tabs indicator, fades) end
}

describe('accessibility: every page for each role passes axe (WCAG 2.1 AA) at desktop and phone widths', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let base: string;
  let doctorId: string;
  let longNamedDoctorId: string;
  let slotId: number;
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];

  async function newPage(viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS]): Promise<Page> {
    const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    contexts.push(context);
    return context.newPage();
  }

  async function signIn(page: Page, role: Exclude<Role, 'anonymous'>): Promise<void> {
    if (role === 'platformAdmin') {
      await page.goto(`${base}/support`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/institutions$/);
      return;
    }
    const email = { patient: LONG_PATIENT_EMAIL, doctor: 'doctor2@demo.telemed.local', clinicAdmin: 'admin@demo.telemed.local' }[role];
    await signInWithGoogle(page, base, email);
  }

  /** Runs axe on the page as it is and checks that nothing is wider than the window. */
  async function audit(page: Page, label: string): Promise<void> {
    const kind = (page.viewportSize()?.width ?? 1280) < 600 ? 'phone' : 'desktop';
    const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    for (const v of result.violations) {
      problems.push(`${kind} ${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 1) problems.push(`${kind} ${label}: the page is ${overflow}px wider than the window`);
    if (kind === 'phone') {
      // One Logout on screen (the top bar's; /institution-admin showed its own too), and the tab bar's labels on one
      // line each (the selected 'My Appointments' wrapped and was cut off at 390 px).
      const layout = await page.evaluate(() => ({
        logouts: [...document.querySelectorAll('button')].filter((b) => b.textContent?.trim() === 'Logout' && b.getClientRects().length > 0).length,
        wrapped: [...document.querySelectorAll<HTMLElement>('.MuiBottomNavigationAction-label')]
          .filter((l) => l.scrollWidth > l.clientWidth + 1 || l.offsetHeight > parseFloat(getComputedStyle(l).lineHeight) * 1.5)
          .map((l) => l.textContent),
      }));
      if (layout.logouts > 1) problems.push(`${kind} ${label}: ${layout.logouts} Logout buttons on screen`);
      if (layout.wrapped.length > 0) problems.push(`${kind} ${label}: tab labels not on one line: ${layout.wrapped.join(', ')}`);
    }
  }

  async function visit(page: Page, path: string, name: string): Promise<void> {
    await page.goto(`${base}${path}`);
    await settled(page);
    await audit(page, path);
    await screenshot(page, `a11y-${name}`);
  }

  before(async () => {
    ensureFrontendBuilt();
    const port = await freePort();
    base = `http://localhost:${port}`;
    const dataDir = tmpDataDir();
    server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'on', PORT: String(port), PUBLIC_URL: base, HOST: '127.0.0.1' });
    const created = await runNpm(['cli', '--', 'admin:create', '--email', ADMIN.email, '--name', 'Ops Lead'], { DATA_DIR: dataDir }, `${ADMIN.password}\n`);
    assert.equal(created.code, 0, created.stderr);
    browser = await launchChromium();

    // Set-up through the product itself: the second demo doctor takes a 40-character name; their page links are on
    // their profiles; the patient (whose own name is over 40 characters) adds both doctors.
    const ids: string[] = [];
    for (const email of ['doctor1@demo.telemed.local', 'doctor2@demo.telemed.local']) {
      const page = await newPage(VIEWPORTS.desktop);
      await signInWithGoogle(page, base, email);
      if (email.startsWith('doctor2')) assert.equal(await apiFrom(page, 'PUT', '/users/me', { name: LONG_DOCTOR_NAME }), 200);
      await page.goto(`${base}/profile`);
      ids.push((await page.getByTestId('public-page-link').getAttribute('href'))!.slice(1));
    }
    [doctorId, longNamedDoctorId] = ids as [string, string];
    const patient = await newPage(VIEWPORTS.desktop);
    await signInWithGoogle(patient, base, LONG_PATIENT_EMAIL);
    for (const id of ids) assert.equal(await apiFrom(patient, 'POST', '/users/subscribe', { doctor_id: id }), 200);
    const open = (await (await fetch(`${base}/api/v1/public/doctors/${longNamedDoctorId}`)).json()) as { slots: Array<{ slot_id: number }> };
    slotId = open.slots[1]!.slot_id;
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  const routes = (): Record<Role, Array<[path: string, name: string]>> => ({
    anonymous: [
      ['/', 'root'],
      ['/login', 'login'],
      ['/support', 'support'],
      ['/welcome', 'welcome'],
      [`/${longNamedDoctorId}`, 'public-doctor'],
      ['/dr-arjun-banerjee', 'public-doctor-sample-bengali'],
      ['/dr-ananya-sharma', 'public-doctor-sample-devanagari'],
      ['/no/such/page', 'not-found'],
    ],
    patient: [
      ['/home', 'patient-home'],
      ['/my-appointments', 'patient-my-appointments'],
      [`/confirm-appointment?slot_id=${slotId}`, 'patient-confirm-appointment'],
      ['/profile', 'patient-profile'],
      [`/${doctorId}`, 'patient-public-doctor'],
      ['/admin', 'patient-admin-refused'],
    ],
    doctor: [
      ['/doctor-home', 'doctor-home'],
      ['/my-appointments', 'doctor-my-appointments'],
      ['/profile', 'doctor-profile'],
    ],
    clinicAdmin: [
      ['/institution-admin', 'clinic-admin'],
      ['/admin/appointments', 'admin-clinic-appointments'],
      ['/admin/staff', 'admin-clinic-staff'],
    ],
    platformAdmin: [
      ['/institutions', 'platform-admin-institutions'],
      ['/admin/institutions', 'admin-institutions'],
      ['/admin/users', 'admin-users'],
      ['/admin/projections', 'admin-projections'],
    ],
  });

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: every route of every role`, async () => {
      for (const [role, list] of Object.entries(routes()) as Array<[Role, Array<[string, string]>]>) {
        const page = await newPage(viewport);
        if (role !== 'anonymous') await signIn(page, role);
        for (const [path, name] of list) await visit(page, path, name);
        await page.context().close();
      }
    });
  }

  it('dialogs open and close from the keyboard, keep focus inside, and hand it back; focus is always visible', async () => {
    const page = await newPage(VIEWPORTS.desktop);
    await signIn(page, 'patient');
    await settled(page);
    const addCredits = page.getByRole('button', { name: 'Add Credits' });
    await addCredits.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Purchase Credits' });
    await dialog.waitFor();
    await page.waitForTimeout(300);
    await audit(page, '/home with Purchase Credits open');
    await screenshot(page, 'a11y-patient-purchase-credits');
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), 'focus stays in the dialog');
      assert.ok(await focusVisible(page), `the focused element shows it (${await describeFocus(page)})`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Add Credits', 'focus returns to the button that opened it');

    // Day tabs by keyboard: arrows move between days, Enter selects one.
    const days = page.getByRole('tablist').first();
    await days.getByRole('tab').first().focus();
    await page.keyboard.press('ArrowRight');
    assert.ok(await focusVisible(page), 'the focused day tab shows it');
    await page.keyboard.press('Enter');

    // The user menu (doctor, desktop): opens with Enter, arrows move, Escape closes and focus goes back.
    const doctor = await newPage(VIEWPORTS.desktop);
    await signIn(doctor, 'doctor');
    await settled(doctor);
    const menuButton = doctor.locator('button[aria-haspopup="menu"]');
    await menuButton.focus();
    await doctor.keyboard.press('Enter');
    const menu = doctor.getByRole('menu');
    await menu.waitFor();
    await doctor.keyboard.press('ArrowDown');
    assert.equal(await doctor.evaluate(() => document.activeElement?.getAttribute('role')), 'menuitem');
    assert.ok(await focusVisible(doctor), 'the focused menu item shows it');
    await audit(doctor, '/doctor-home with the user menu open');
    await screenshot(doctor, 'a11y-doctor-user-menu');
    // The window crossing the phone width and back while the menu is open (a zoom, a rotation; a full-page screenshot
    // does it for a moment, at 1x1) swaps the header for the phone's and back, with a new button element: the menu
    // comes back with the desktop header, and closing it hands focus to the button that is there, not to a node gone.
    await doctor.setViewportSize(VIEWPORTS.phone);
    await menu.waitFor({ state: 'hidden' });
    await doctor.setViewportSize(VIEWPORTS.desktop);
    await menu.waitFor();
    await doctor.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    // MUI hands focus back once the menu's exit transition ends: wait for it rather than race it.
    // Polled with evaluate: waitForFunction evaluates its predicate as a string, which the page's CSP refuses.
    for (const deadline = Date.now() + 5000; ; await doctor.waitForTimeout(50)) {
      if ((await doctor.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))) === 'menu') break;
      assert.ok(Date.now() < deadline, `focus went back to the menu button (it is on ${await doctor.evaluate("document.activeElement?.outerHTML.slice(0, 120)")})`);
    }

    // The sign-in page from the keyboard alone: every stop shows focus.
    const visitor = await newPage(VIEWPORTS.phone);
    await visitor.goto(`${base}/login`);
    await settled(visitor);
    for (let i = 0; i < 3; i += 1) {
      await visitor.keyboard.press('Tab');
      assert.ok(await focusVisible(visitor), `the focused element shows it (${await describeFocus(visitor)})`);
    }
  });

  it('found no violations and no page wider than the window', () => {
    assert.deepEqual(problems, []);
  });
});

/** The focused element draws an outline, a focus ring (box-shadow) or a focused field's border. */
function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return false;
    const style = getComputedStyle(el);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
    if (style.boxShadow && style.boxShadow !== 'none') return true;
    return Boolean(el.closest('.Mui-focused'));
  });
}

function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()} ${el.getAttribute('role') ?? ''} "${(el.textContent ?? '').trim().slice(0, 40)}"` : 'nothing';
  });
}
