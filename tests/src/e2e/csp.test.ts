import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, startServerProcess } from '../support/processes';
import { tmpDataDir } from '../support/test-app';
import { chromiumMissing, ensureFrontendBuilt, launchChromium, signInWithGoogle } from './browser';

/** The Content-Security-Policy allows no inline script: every page the product serves still works in a browser. */
describe('pages under the Content-Security-Policy', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let browser: Browser;
  let base: string;

  before(async () => {
    ensureFrontendBuilt();
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = await startServerProcess({ DATA_DIR: tmpDataDir(), DEMO_DATA: 'on', PORT: String(port), PUBLIC_URL: base });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  /** A page that records every CSP violation and uncaught error. */
  async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await context.addInitScript({
      content: "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
    return { page, problems };
  }

  it('/docs renders the interactive API documentation and can call the API', async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${base}/docs/`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Telemedicine API' }).waitFor();
    // Swagger UI renders only the operations in view; its filter brings the doctors' tag to the top.
    await page.locator('.operation-filter-input').fill('doctors');
    await page.locator('.opblock-summary', { hasText: '/api/v1/doctors/' }).first().click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await page.locator('.live-responses-table .response-col_status', { hasText: '401' }).first().waitFor();
    assert.deepEqual(problems, []);
  });

  it('the app and the local identity provider sign a patient in', async () => {
    const { page, problems } = await watchedPage();
    await signInWithGoogle(page, base, 'csp.check@example.in');
    await page.getByRole('heading', { name: 'Your Doctors' }).waitFor();
    assert.deepEqual(problems, []);
  });
});
