import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGES } from '@telemed/contracts/languages';
import { VIEWPORTS, bearer, catalogueMessage as message, chromiumMissing, demoProductInChromium, screenshot, signInWithGoogle, watchedPage } from './browser';

/**
 * The product in the patient's language (issue 33), as the built app serves it: a browser that asks for Hindi gets
 * the sign-in page in Hindi (its catalogue fetched, compiled at build time: no message parser and no eval under the
 * CSP), `<html lang>` follows, another language picked shows at once and stays after a reload.
 */
describe('languages in the browser (issue 33)', { skip: chromiumMissing }, () => {
  const demo = demoProductInChromium();

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: a browser asking for Hindi gets the sign-in page in Hindi; Tamil picked shows at once and stays`, async () => {
      const context = await demo.browser.newContext({ viewport, locale: 'hi-IN' });
      const { page, problems } = await watchedPage(context);
      await page.goto(`${demo.base}/login`);
      await page.getByRole('button', { name: 'Google से जारी रखें' }).waitFor();
      await page.getByRole('link', { name: 'सहायता टीम के लिए साइन इन' }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.lang'), 'hi');
      await screenshot(page, 'login-hi');

      await page.getByLabel('भाषा').selectOption('ta');
      await page.getByRole('button', { name: 'Google மூலம் தொடரவும்' }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.lang'), 'ta');
      await screenshot(page, 'login-ta');
      await page.reload();
      await page.getByRole('button', { name: 'Google மூலம் தொடரவும்' }).waitFor();
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      assert.ok(overflow <= 1, `the page fits the window (${overflow}px wider)`);

      // The phone sign-in dialog too (its own chunk).
      await page.getByRole('button', { name: 'தொலைபேசி மூலம் தொடரவும்' }).click();
      await page.getByRole('dialog', { name: 'மொபைல் எண் மூலம் உள்நுழையவும்' }).waitFor();
      await page.getByRole('button', { name: 'ரத்துசெய்யவும்' }).click();
      assert.deepEqual(problems, [], 'no CSP violation, page error or console error');
      await context.close();
    });
  }

  it('the welcome page arrives in each of the ten languages, in its own script, and fits a phone', async () => {
    for (const { code, locale } of LANGUAGES) {
      const context = await demo.browser.newContext({ viewport: VIEWPORTS.phone, locale });
      const { page, problems } = await watchedPage(context);
      // The HTML itself is in the language (rendered at build time), before any script runs.
      const html = await (await fetch(`${demo.base}/welcome`, { headers: { 'Accept-Language': locale } })).text();
      assert.match(html, new RegExp(`<html lang="${code}">`));
      await page.goto(`${demo.base}/welcome`);
      await page.getByRole('combobox', { name: message(code, 'common', 'common.language') }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.lang'), code);
      assert.ok(await page.getByText(message(code, 'public', 'public.tagline')).isVisible(), `the tagline in ${code}`);
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      assert.ok(overflow <= 1, `${code}: the page fits the phone (${overflow}px wider)`);
      await screenshot(page, `welcome-${code}`);
      assert.deepEqual(problems, [], `${code}: no CSP violation, page error or console error`);
      await context.close();
    }
  });

  it('the language follows the account: picked before signing in, kept on it, and another browser signing in turns to it', async () => {
    const email = 'meera.language@example.in';
    const first = await demo.browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-IN' });
    const page = await first.newPage();
    await page.goto(`${demo.base}/login`);
    await page.getByLabel('Language').selectOption('ml');
    await page.getByRole('button', { name: 'Google ഉപയോഗിച്ച് തുടരുക' }).waitFor();
    await signInWithGoogle(page, demo.base, email, { googleButton: 'Google ഉപയോഗിച്ച് തുടരുക' });
    // A new account has no language of its own: it takes the one picked in this browser.
    const headers = await bearer(page);
    for (const deadline = Date.now() + 15_000; ; ) {
      const me = (await (await fetch(`${demo.base}/api/v1/users/me`, { headers })).json()) as { language: string | null };
      if (me.language === 'ml') break;
      assert.ok(Date.now() < deadline, `the account keeps the language picked before signing in (it has ${me.language})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await first.close();

    // Another browser, in English: signing in turns the screens to the account's language.
    const second = await demo.browser.newContext({ viewport: VIEWPORTS.phone, locale: 'en-IN' });
    const other = await second.newPage();
    await signInWithGoogle(other, demo.base, email);
    await other.waitForFunction("document.documentElement.lang === 'ml'");
    await other.goto(`${demo.base}/profile`);
    assert.equal(await other.getByLabel('ഭാഷ').inputValue(), 'ml');
    // Picked again on the profile: kept on the account at once.
    await other.getByLabel('ഭാഷ').selectOption('pa');
    await other.getByLabel('ਭਾਸ਼ਾ').waitFor();
    await screenshot(other, 'profile-pa');
    const otherHeaders = await bearer(other);
    for (const deadline = Date.now() + 15_000; ; ) {
      const me = (await (await fetch(`${demo.base}/api/v1/users/me`, { headers: otherHeaders })).json()) as { language: string | null };
      if (me.language === 'pa') break;
      assert.ok(Date.now() < deadline, `the profile's choice is kept on the account (it has ${me.language})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await second.close();
  });
});
