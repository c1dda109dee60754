import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QUIET_HOURS, type MessagingPreferences } from '@telemed/contracts';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { browserZone } from '../../lib/time';
import { MessagingCard, QUIET_HOURS_SHOWN } from './MessagingCard';

type Call = { method: string; url: string; body: unknown };

const PREFS: MessagingPreferences = {
  channels: { email: true, sms: true, whatsapp: false },
  time_zone: null,
  verified_phone: '+919876543210',
  has_email: false,
  available: ['email', 'sms'],
};

/** The preferences route with state of its own (what was saved is what is read next), every request recorded. */
function stubApi(initial: MessagingPreferences, more: Record<string, (body: unknown) => Response> = {}): { calls: Call[]; prefs: () => MessagingPreferences } {
  let prefs = initial;
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    if (url === '/api/v1/users/me/messaging' && method === 'GET') return json(200, prefs);
    if (url === '/api/v1/users/me/messaging' && method === 'PUT') {
      prefs = { ...prefs, ...(body as Pick<MessagingPreferences, 'channels' | 'time_zone'>) };
      return json(200, prefs);
    }
    const answer = more[`${method} ${url}`];
    if (answer) {
      const response = answer(body);
      if (url === '/api/v1/users/me/phone/verify' && response.ok) prefs = { ...prefs, verified_phone: '+919812345678' };
      return response;
    }
    return json(404, { detail: 'Not found', code: 'not_found' });
  });
  return { calls, prefs: () => prefs };
}

const channel = (name: string) => screen.getByRole('switch', { name });
const reasonOf = (name: string) => channel(name).closest('div[class*="MuiBox-root"]')?.textContent;

describe('account: messages (issue 34)', () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  it('shows each channel as a switch, the ones that cannot be used disabled with why, and saves a choice with the browser’s zone', async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'p1', user_id: 'p1', name: 'Asha', email: null, account_type: 'patient' }, authProvider: 'google' });
    const { calls } = stubApi(PREFS);
    renderAt('/profile', <MessagingCard />);

    expect(await screen.findByRole('heading', { level: 2, name: 'Messages' })).toBeTruthy();
    expect(screen.getByText(/Messages never contain health details\. Between 9:00 pm and 9:00 am we send nothing but sign-in codes/)).toBeTruthy();
    expect(await screen.findByText('+919876543210 (verified)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change' })).toBeTruthy();

    // No e-mail address on the account; WhatsApp not offered by this server; SMS to the verified number.
    expect(channel('E-mail').hasAttribute('disabled')).toBe(true);
    expect(reasonOf('E-mail')).toContain('Your account has no e-mail address');
    expect(channel('WhatsApp').hasAttribute('disabled')).toBe(true);
    expect(reasonOf('WhatsApp')).toContain('Not available yet');
    expect((channel('SMS') as HTMLInputElement).checked).toBe(true);
    expect(channel('SMS').hasAttribute('disabled')).toBe(false);

    fireEvent.click(channel('SMS'));
    expect(await screen.findByText('Message settings saved')).toBeTruthy();
    // What the person chose for channels they cannot use yet is kept as it was.
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ channels: { email: true, sms: false, whatsapp: false }, time_zone: browserZone() }]);
    expect(browserZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await waitFor(() => expect((channel('SMS') as HTMLInputElement).checked).toBe(false));
  });

  it('without a verified number, SMS waits for one; adding it takes the same two steps as signing in', async () => {
    const { calls } = stubApi(
      { ...PREFS, verified_phone: null, has_email: true, available: ['email', 'sms', 'whatsapp'] },
      {
        'POST /api/v1/users/me/phone/start': () => json(200, { status: 'code_sent', phone_number: '+919812345678', channel: 'sms', resend_after_seconds: 30, expires_in_seconds: 300, challenge: 'challenge-from-the-start-answer' }),
        'POST /api/v1/users/me/phone/verify': () => json(200, { status: 'success', phone_number: '+919812345678' }),
      },
    );
    renderAt('/profile', <MessagingCard />);
    expect(await screen.findByText(/No mobile number yet/)).toBeTruthy();
    expect(channel('SMS').hasAttribute('disabled')).toBe(true);
    expect((channel('SMS') as HTMLInputElement).checked).toBe(false);
    expect(reasonOf('SMS')).toContain('Add a mobile number first');
    expect(reasonOf('WhatsApp')).toContain('Add a mobile number first');
    expect(channel('E-mail').hasAttribute('disabled')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Add mobile number' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Mobile number' }), { target: { value: '98123 45678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Code' }), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Mobile number verified')).toBeTruthy();
    expect(await screen.findByText('+919812345678 (verified)')).toBeTruthy();
    // SMS now reaches the number: the choice made before (on by default) holds.
    await waitFor(() => expect(channel('SMS').hasAttribute('disabled')).toBe(false));
    expect((channel('SMS') as HTMLInputElement).checked).toBe(true);
    const section = screen.getByRole('region', { name: 'Messages' });
    expect(within(section).getByRole('button', { name: 'Change' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([
      ['/api/v1/users/me/phone/start', { phone_number: '98123 45678' }],
      ['/api/v1/users/me/phone/verify', { phone_number: '+919812345678', code: '654321', challenge: 'challenge-from-the-start-answer' }],
    ]);
  });

  it("the quiet hours shown are the contracts' (this module repeats them so that the bundle has no zod)", () => {
    expect(QUIET_HOURS_SHOWN).toEqual(QUIET_HOURS);
  });
});
