import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct } from './browser';

/**
 * Read-your-writes when the read side takes longer than the server's 2 s wait (a heavy load): the console shows what
 * the server has, marked as still updating, and ends up current by itself once the projections have caught up. The
 * projections are held back by the test-only FAULT_INJECTION hold (projection-hold.ts) while a file exists.
 */
describe('the console after a write the read side is slow to reach', { skip: chromiumMissing }, () => {
  let server: Awaited<ReturnType<typeof startDemoProduct>>['server'];
  let base: string;
  let browser: Browser;
  const holdDir = mkdtempSync(join(tmpdir(), 'telemed-hold-'));
  const holdFile = join(holdDir, 'hold');

  before(async () => {
    ({ server, base } = await startDemoProduct({ FAULT_INJECTION: `hold-projections-while-file:${holdFile}` }));
    browser = await launchChromium();
  });
  after(async () => {
    rmSync(holdDir, { recursive: true, force: true });
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('a deactivation shows as still updating while the projections are held, then as done without a reload', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
    try {
      const page = await context.newPage();
      await signInWithGoogle(page, base, 'admin@demo.telemed.local');
      await page.goto(`${base}/admin/doctors`);
      const row = page.locator('tr', { hasText: 'Dr. Rohan Iyer' }).first();
      await row.getByRole('button', { name: 'Deactivate', exact: true }).waitFor();

      await page.evaluate('window.notReloaded = true');
      writeFileSync(holdFile, '');
      await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Deactivate', exact: true }).click();
      await page.getByText('Dr. Rohan Iyer deactivated').waitFor();
      // The list shows the command's answer; fetched again (the bar's Refresh, as anyone checking would), the read
      // waits its 2 s and gets what the read side has: shown, and marked as still updating.
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      const status = page.getByTestId('still-updating');
      await status.getByText('Still updating: showing what the server has so far').waitFor({ timeout: 15_000 });
      await row.getByRole('button', { name: 'Deactivate', exact: true }).waitFor();
      await screenshot(page, 'admin-still-updating');

      rmSync(holdFile);
      // No reload: the console asks again and fetches the list once the read side has caught up.
      await row.getByRole('button', { name: 'Activate', exact: true }).waitFor({ timeout: 20_000 });
      await status.waitFor({ state: 'detached', timeout: 10_000 });
      // And then it rests: no read keeps coming back marked stale (a cached stale answer revalidated by a 304 did).
      let reads = 0;
      page.on('request', (r) => void (r.url().includes('/api/v1/') && r.method() === 'GET' && (reads += 1)));
      await page.waitForTimeout(4000);
      assert.ok(reads <= 1, `the console stopped fetching once current (${reads} reads in 4 s)`);
      assert.equal(await status.count(), 0, 'no longer marked as updating');
      assert.equal(await page.evaluate('window.notReloaded'), true, 'the page was not reloaded');
    } finally {
      await context.close();
    }
  });
});
