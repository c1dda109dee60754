import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { VIEWPORTS, chromiumMissing, demoProductInChromium, screenshot, watchedPage } from './browser';

/**
 * Sign-in by phone in Chromium (issue 34): "Continue with Phone" on the sign-in page sends a code, which the development
 * outbox (/dev/outbox, the page a developer reads it on) shows; the code signs a new patient in, whose Profile then
 * shows the verified number and their message channels.
 */
describe('sign-in by phone through the development outbox', { skip: chromiumMissing }, () => {
  const demo = demoProductInChromium();
  let next = 9_812_300_000;

  /** The newest code the outbox page shows for the number, read as a developer would: on /dev/outbox, filtered by it. */
  async function codeFromOutbox(page: Page, phone: string, shot: string): Promise<string> {
    await page.goto(`${demo.base}/dev/outbox`);
    await page.getByRole('textbox').first().fill(phone);
    const entry = page.getByText(/is your sign-in code/).first();
    await entry.waitFor();
    await screenshot(page, shot);
    return /(\d{6}) is your sign-in code/.exec(await entry.innerText())![1]!;
  }

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: a new number gets a code, signs in as a patient, and finds the number and channels on Profile`, async () => {
      const phone = `+91${(next += 11)}`;
      const context = await demo.browser.newContext({ viewport, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
      const { page, problems } = await watchedPage(context);
      await page.goto(`${demo.base}/login`);
      await page.getByRole('button', { name: 'Continue with Phone' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in with your mobile number' });
      await dialog.getByLabel('Mobile number').fill(phone.slice(3));
      await dialog.getByRole('button', { name: 'Send code' }).click();
      await dialog.getByLabel('Code').waitFor();
      assert.ok(await dialog.getByRole('button', { name: /Resend code in/ }).isDisabled(), 'a resend waits its 30 seconds');
      await screenshot(page, 'phone-sign-in-code');

      const outbox = await context.newPage();
      const code = await codeFromOutbox(outbox, phone, 'dev-outbox');
      await outbox.close();

      await dialog.getByLabel('Code').fill(code);
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/(home|welcome|profile)/);
      await page.goto(`${demo.base}/profile`);
      await page.getByRole('heading', { name: 'Messages' }).waitFor();
      await page.getByText(phone).first().waitFor();
      await screenshot(page, 'profile-messages');
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      assert.ok(overflow <= 1, `the profile fits the window (${overflow}px wider)`);
      assert.deepEqual(problems, [], 'no CSP violation, page error or console error');
      await context.close();
    });
  }
});
