import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromiumMissing, demoProductInChromium, screenshot, signedInInIndia, VIEWPORTS } from './browser';

/**
 * Buying credits (issue 36) as a patient meets it with the local test gateway `npm start` serves: the pack chosen on
 * the home page, the gateway's checkout page, and back home with the credits the server added once it verified the
 * capture; a failed payment adds nothing and says so. Desktop and phone.
 */
describe('a patient buys credits at the checkout', { skip: chromiumMissing }, () => {
  const suite = demoProductInChromium();

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`pays for a pack and sees the credits added; a failed payment adds none (${name})`, async () => {
      const { base, browser } = suite;
      const patient = await signedInInIndia(browser, base, 'patient@demo.telemed.local', viewport);
      await patient.goto(`${base}/home`);
      const credits = patient.getByTestId('credits');
      await patient.locator('[data-testid="credits"]:not(:has(.MuiSkeleton-root))').waitFor();
      const before = Number(await credits.innerText());

      await patient.getByRole('button', { name: 'Add Credits' }).click();
      const dialog = patient.getByRole('dialog', { name: 'Purchase Credits' });
      await dialog.getByText(/Pay by UPI, card or net banking/).waitFor();
      await screenshot(patient, `wallet-packs`);
      await dialog.getByRole('button', { name: /^100 credits/ }).click();
      await patient.getByRole('heading', { name: 'Test checkout (development)' }).waitFor();
      await screenshot(patient, `wallet-checkout`);
      await patient.getByRole('button', { name: 'Pay ₹999.00' }).click();

      await patient.getByText('100 credits added. Thank you!').waitFor();
      await patient.locator('[data-testid="credits"]', { hasText: String(before + 100) }).waitFor();
      assert.equal(new URL(patient.url()).search, '', 'the checkout’s answer is taken off the address');
      await screenshot(patient, `wallet-paid`);

      // A reload asks nothing again and shows the same balance.
      await patient.reload();
      await patient.locator('[data-testid="credits"]', { hasText: String(before + 100) }).waitFor();

      await patient.getByRole('button', { name: 'Add Credits' }).click();
      await patient.getByRole('dialog', { name: 'Purchase Credits' }).getByRole('button', { name: /^200 credits/ }).click();
      await patient.getByRole('button', { name: 'Make the payment fail' }).click();
      await patient.getByText('The payment failed and nothing was charged. You can try again.').waitFor();
      assert.equal(Number(await credits.innerText()), before + 100);
      await patient.close();
    });
  }
});
