import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServerProcess } from '../../tests/src/support/processes';
import { CHROMIUM, ensureFrontendBuilt } from '../../tests/src/e2e/browser';
import { median } from './stats';

/** Chrome DevTools' "Fast 3G" preset: 562.5 ms round trip, about 1.44 Mbit/s down and 675 kbit/s up. */
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (750 * 1000) / 8 * 0.9 };

/**
 * First contentful paint of /login on Fast 3G with a 4× slower CPU (an Indian patient's usual phone), in a fresh
 * browser context each run (nothing cached); beside it the same page fetched without compression, the figure before
 * compression was served.
 */
export async function loginPaint(work: string, runs: number) {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is missing` };
  ensureFrontendBuilt();
  const server = await startServerProcess({ DATA_DIR: mkdtempSync(join(work, 'paint-')), LOG_LEVEL: 'error', HOST: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const paint = async (compressed: boolean) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    if (!compressed) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    await page.goto(`${server.baseUrl.replace('127.0.0.1', 'localhost')}/login`, { waitUntil: 'load', timeout: 120_000 });
    await page.getByRole('button', { name: 'Continue with Google' }).waitFor({ timeout: 120_000 });
    const fcp = (await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")) as number | null;
    const transferred = (await page.evaluate("performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0)")) as number;
    await context.close();
    return { fcp_ms: fcp ?? NaN, transferred_bytes: transferred };
  };
  try {
    const compressed = [];
    const identity = [];
    for (let i = 0; i < runs; i += 1) {
      compressed.push(await paint(true));
      identity.push(await paint(false));
    }
    return {
      fcp_ms: median(compressed.map((r) => r.fcp_ms)),
      transferred_kib: median(compressed.map((r) => r.transferred_bytes)) / 1024,
      uncompressed_fcp_ms: median(identity.map((r) => r.fcp_ms)),
      uncompressed_transferred_kib: median(identity.map((r) => r.transferred_bytes)) / 1024,
      runs: compressed,
      uncompressed_runs: identity,
    };
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await server.exited;
  }
}
