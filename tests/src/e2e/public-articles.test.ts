import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { BUNDLED_ARTICLES } from '@telemed/contracts/bundled-articles';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, startDemoProduct } from './browser';

/**
 * The sample profiles' articles in the browser (issue 16; seed 000's /blog/{slug} links): a visitor who is not signed
 * in opens a sample doctor's public page, follows the article link and reads the article (title, Hindi title,
 * doctor, read time, the general-information note), then its Book Consultation leads back to the profile's Book
 * Consultation tab. At 1280 and 390 px, with no page error or Content Security Policy violation; every profile's
 * link leads to its article.
 */

type Server = Awaited<ReturnType<typeof startServerProcess>>;

describe("sample profiles' articles in the browser (issue 16)", { skip: chromiumMissing }, () => {
  let server: Server;
  let browser: Browser;
  let base: string;

  before(async () => {
    ({ server, base } = await startDemoProduct());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: from a sample doctor's page the article link opens the article, and Book Consultation leads back`, async () => {
      const context = await browser.newContext({ viewport, timezoneId: 'Asia/Kolkata', locale: 'en-IN' });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

      await page.goto(`${base}/dr-ananya-sharma`);
      await page.getByRole('link', { name: 'What to do about a fever' }).click();
      await page.waitForURL(/\/blog\/what-to-do-about-a-fever$/);
      await page.getByRole('heading', { level: 1, name: 'What to do about a fever' }).waitFor();
      await page.getByText('बुखार में क्या करें').waitFor();
      await page.getByRole('link', { name: 'Dr. Ananya Sharma' }).waitFor();
      await page.getByText(/\d+ min read/).waitFor();
      await page.getByText(/general information, not a diagnosis/).waitFor();
      assert.equal(await page.getByText('Page not found').count(), 0, 'not the not-found page');
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      assert.ok(overflow <= 1, `the article fits the window (${overflow}px wider)`);
      await screenshot(page, 'bundled-article');

      await page.getByRole('link', { name: 'Book Consultation' }).click();
      await page.waitForURL(/\/dr-ananya-sharma#book-consultation$/);
      const tab = page.getByRole('tab', { name: /Book Consultation/ });
      await tab.waitFor();
      assert.equal(await tab.getAttribute('aria-selected'), 'true', 'the Book Consultation tab is open');
      assert.deepEqual(problems, [], 'no CSP violation or page error');
      await context.close();
    });
  }

  it("every sample profile's article link leads to its article, served with its own title", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    for (const article of BUNDLED_ARTICLES) {
      await page.goto(`${base}/${article.author_id}`);
      await page.getByRole('link', { name: article.title }).click();
      await page.waitForURL(new RegExp(`/blog/${article.slug}$`));
      await page.getByRole('heading', { level: 1, name: article.title }).waitFor();
      assert.equal(await page.title(), `${article.title} · ${article.author_name}`, `${article.slug}: the page's title`);
      const served = await fetch(`${base}/blog/${article.slug}`);
      assert.equal(served.status, 200, `${article.slug}: served with 200`);
      assert.ok((await served.text()).includes(`<meta property="og:title" content="${article.title}">`), `${article.slug}: og:title`);
    }
    await context.close();
  });
});
