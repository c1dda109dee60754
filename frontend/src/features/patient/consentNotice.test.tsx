import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONSENT_LANGUAGES, consentNotice, type ConsentLanguage } from '@telemed/contracts/consent-notice';
import { isLanguageCode } from '@telemed/contracts/languages';
import { json, renderAt } from '../../test/render';
import { I18nProvider } from '../../i18n/I18nProvider';
import { ConfirmAppointment } from './ConfirmAppointment';
import tamil from '../../i18n/catalogues/ta/patient.json';
import { slotFacts } from '../../test/slotFacts';

type Catalogue = { default: Record<string, string> };
const accounts = import.meta.glob<Catalogue>('../../i18n/catalogues/*/account.json', { eager: true });
const shells = import.meta.glob<Catalogue>('../../i18n/catalogues/*/shell.json', { eager: true });
const message = (catalogues: Record<string, Catalogue>, language: ConsentLanguage, feature: string, id: string): string | undefined =>
  catalogues[`../../i18n/catalogues/${language}/${feature}.json`]?.default[id];

describe('the privacy notice names the Profile screen and its Withdraw button as that screen shows them', () => {
  for (const language of CONSENT_LANGUAGES) {
    const withdraw = message(accounts, language, 'account', 'account.withdraw');
    const profile = message(shells, language, 'shell', 'shell.profile');
    it(`${language}: quotes "${withdraw ?? 'account.withdraw'}" and names ${profile ?? 'shell.profile'}`, () => {
      const text = consentNotice(language).text;
      expect(withdraw, `${language}: account.withdraw`).toBeDefined();
      expect(profile, `${language}: shell.profile`).toBeDefined();
      expect(text).toContain(`"${withdraw}"`);
      expect(text).toContain(profile);
      const profileTitle = message(accounts, language, 'account', 'account.profileTitle');
      if (profileTitle !== undefined) expect(text).toContain(profileTitle);
    });
  }
});

const facts = slotFacts();

/** A fake API serving the contracts' notices; records the calls. */
function server() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(url).replace('/api/v1', '');
      calls.push(`${method} ${path}${init?.body ? ` ${String(init.body)}` : ''}`);
      if (path.startsWith('/slots/12')) return json(200, facts);
      if (path.startsWith('/consents/notice')) {
        const asked = new URL(path, 'http://x').searchParams.get('language');
        return json(200, consentNotice(isLanguageCode(asked) ? asked : 'en'));
      }
      if (path === '/users/me/consents' && method === 'GET') return json(200, { current_notice_version: consentNotice().version, has_current_consent: false, consents: [] });
      if (path === '/users/me/consents' && method === 'POST') return json(201, { notice_version: consentNotice().version, status: 'active' });
      if (path === '/appointments' && method === 'POST') return json(201, { appointment_id: 'a', status: 'requested' });
      return json(404, { detail: 'Not found' });
    }),
  );
  return calls;
}

const paragraphOf = (language: ConsentLanguage, i: number) => consentNotice(language).text.split('\n\n')[i]!;

describe('the privacy notice on Request Appointment', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("opens in the screens' language (Tamil), and agreeing records the Tamil text", async () => {
    const calls = server();
    renderAt(
      '/confirm-appointment?slot_id=12',
      <I18nProvider language="ta">
        <ConfirmAppointment />
      </I18nProvider>,
    );
    const panel = await screen.findByTestId('consent-notice');
    expect(await within(panel).findByText(paragraphOf('ta', 0), undefined, { timeout: 5000 })).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: consentNotice('ta').title })).toBeTruthy();
    expect(within(panel).getByRole<HTMLSelectElement>('combobox').value).toBe('ta');
    fireEvent.click(within(panel).getByRole('checkbox'));
    fireEvent.change(screen.getByLabelText(new RegExp(tamil['patient.reasonForVisit'])), { target: { value: 'காய்ச்சல்' } });
    fireEvent.click(screen.getByRole('button', { name: tamil['patient.sendRequest'] }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('POST'))[0]).toBe(`POST /users/me/consents {"notice_version":"${consentNotice().version}","language":"ta"}`));
  });

  it('switches to another of the ten, and a box ticked under one text is not ticked under another', async () => {
    const calls = server();
    renderAt('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    const panel = await screen.findByTestId('consent-notice');
    expect(await within(panel).findByText(paragraphOf('en', 0))).toBeTruthy();
    const box = () => within(panel).getByRole<HTMLInputElement>('checkbox', { name: 'I have read the privacy notice and I agree to it' });
    fireEvent.click(box());
    expect(box().checked).toBe(true);
    fireEvent.change(within(panel).getByRole('combobox', { name: 'Language of the notice' }), { target: { value: 'pa' } });
    expect(await within(panel).findByText(paragraphOf('pa', 4))).toBeTruthy();
    expect(box().checked).toBe(false);
    expect(calls).toContain('GET /consents/notice?language=pa');
    fireEvent.click(box());
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Rash' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('POST'))[0]).toBe(`POST /users/me/consents {"notice_version":"${consentNotice().version}","language":"pa"}`));
  });
});
