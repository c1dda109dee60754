import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { I18nProvider } from '../../i18n/I18nProvider';
import { sessionStore } from '../../lib/session';
import { ProfilePage } from './ProfilePage';

const GIVEN = '2030-01-02T06:30:00Z';
const READ = '2030-01-03T09:15:00Z';

describe('account: the profile in Hindi', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  it('shows its headings, the consents with their dates and who saw the data in Hindi; what the server sent in English too', async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'p1', user_id: 'p1', name: 'Asha', email: null, account_type: 'patient' }, authProvider: 'google' });
    vi.stubGlobal('fetch', async (url: string) => {
      if (url === '/api/v1/users/me') return json(200, { user_id: 'p1', name: 'Asha', email: 'asha@example.in', phone_number: null, account_type: 'patient', doctor: null });
      if (url === '/api/v1/users/me/consents')
        return json(200, {
          current_notice_version: 'v9',
          has_current_consent: true,
          consents: [{ notice_version: 'v9', language: 'hi', text_hash: 'h', status: 'active', given_at: GIVEN, withdrawn_at: null, current: true }],
        });
      if (url.startsWith('/api/v1/users/me/access-log'))
        return json(200, {
          entries: [
            {
              id: 'e1',
              who: { user_id: 'd1', name: 'Dr. Kabir', role: 'doctor', institution_role: null },
              institution: null,
              what: { resource: 'pending_requests', description: "A doctor's appointment requests", route: 'GET /api/v1/appointments/pending', items: ['a1'] },
              when: READ,
              why: 'care',
              why_label: 'Your care (the doctor treating you)',
            },
          ],
          next_cursor: null,
        });
      return json(404, { detail: 'Not found' });
    });
    renderAt('/profile', <I18nProvider language="hi"><ProfilePage /></I18nProvider>);

    expect(await screen.findByRole('heading', { level: 1, name: 'प्रोफ़ाइल' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'निजता के लिए सहमति' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'मेरा डेटा डाउनलोड करें' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'मेरा डेटा मिटाएँ' })).toBeTruthy();
    expect(screen.getByLabelText(/नाम/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'सेव करें' })).toBeTruthy();

    // The consent's date in Hindi's month names, Western digits.
    const day = new Intl.DateTimeFormat('hi-IN-u-nu-latn', { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(GIVEN));
    expect(day).toMatch(/2030/);
    const consents = await screen.findByTestId('consents-list');
    expect(within(consents).getByText('निजता सूचना v9')).toBeTruthy();
    expect(within(consents).getByText(`हिन्दी · ${day} को सहमति दी`)).toBeTruthy();

    // Who saw the data: the server's English labels of what and why, in Hindi.
    const log = await screen.findByTestId('access-log');
    expect(within(log).getByText('किसी डॉक्टर के अपॉइंटमेंट अनुरोध')).toBeTruthy();
    expect(within(log).getByText('क्यों: आपका इलाज (आपका इलाज करने वाले डॉक्टर)')).toBeTruthy();
    expect(within(log).getByText('डॉक्टर')).toBeTruthy();
    const when = new Intl.DateTimeFormat('hi-IN-u-nu-latn', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(READ));
    expect(within(log).getByText(when)).toBeTruthy();
  });
});
