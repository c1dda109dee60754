import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderAt } from '../test/render';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfirmAppointment } from './patient/ConfirmAppointment';
import { ConsentsCard } from './auth/ConsentsCard';
import { slotFacts } from '../test/slotFacts';

const at = renderAt;

const facts = slotFacts();
const notice = (language: 'en' | 'hi') => ({
  version: 'v9',
  language,
  title: language === 'en' ? 'Privacy notice: booking consultations' : 'गोपनीयता सूचना',
  text: language === 'en' ? 'What we collect: your name.\n\nHow to withdraw: open Profile.' : 'हम क्या एकत्र करते हैं: आपका नाम।',
  text_hash: 'h',
});
const consent = { notice_version: 'v9', language: 'hi', text_hash: 'h', status: 'active', given_at: '2030-01-01T00:00:00Z', withdrawn_at: null, current: true };

/** A fake API: records calls, answers what the page needs. */
function server(state: { consented: boolean }) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(url).replace('/api/v1', '');
      calls.push(`${method} ${path}${init?.body ? ` ${String(init.body)}` : ''}`);
      if (path.startsWith('/slots/12')) return json(200, facts);
      if (path.startsWith('/consents/notice')) return json(200, notice(path.endsWith('hi') ? 'hi' : 'en'));
      if (path === '/users/me/consents' && method === 'GET')
        return json(200, { current_notice_version: 'v9', has_current_consent: state.consented, consents: state.consented ? [consent] : [] });
      if (path === '/users/me/consents' && method === 'POST') return (state.consented = true), json(201, { notice_version: 'v9', status: 'active' });
      if (path.startsWith('/users/me/consents/') && method === 'DELETE') return (state.consented = false), json(200, { notice_version: 'v9', status: 'withdrawn' });
      if (path === '/appointments' && method === 'POST') return state.consented ? json(201, { appointment_id: 'a', status: 'requested' }) : json(403, { detail: 'Consent is needed' });
      return json(404, { detail: 'Not found' });
    }),
  );
  return calls;
}

describe('consent', () => {
  afterEach(() => cleanup());

  it('Request Appointment: a patient without consent reads the notice (English or हिन्दी), ticks its box to agree, and sending records the agreement first', async () => {
    const calls = server({ consented: false });
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    const panel = await screen.findByTestId('consent-notice');
    expect(await within(panel).findByText('What we collect: your name.')).toBeTruthy();
    // The notice's language: the ten by their own names, in a compact select.
    const language = within(panel).getByRole<HTMLSelectElement>('combobox', { name: 'Language of the notice' });
    expect([...language.options].map((o) => o.textContent)).toEqual(['English', 'हिन्दी', 'मराठी', 'ગુજરાતી', 'বাংলা', 'தமிழ்', 'తెలుగు', 'ಕನ್ನಡ', 'മലയാളം', 'ਪੰਜਾਬੀ']);
    expect(language.value).toBe('en');
    fireEvent.change(language, { target: { value: 'hi' } });
    expect(await within(panel).findByText('हम क्या एकत्र करते हैं: आपका नाम।')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Rash' } });
    // Agreeing is its own step: Send Request without the box ticked sends nothing and says what is missing.
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('Please tick the box to agree to the privacy notice first.');
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
    fireEvent.click(within(panel).getByRole('checkbox', { name: 'I have read the privacy notice and I agree to it' }));
    expect(within(panel).queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Request Sent!')).toBeTruthy();
    const writes = calls.filter((c) => c.startsWith('POST'));
    expect(writes).toEqual(['POST /users/me/consents {"notice_version":"v9","language":"hi"}', 'POST /appointments {"slot_id":12,"notes":"Rash"}']);
  });

  it('Request Appointment: a patient with consent sees no notice', async () => {
    server({ consented: true });
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    expect(await screen.findByRole('button', { name: 'Send Request' })).toBeTruthy();
    expect(screen.queryByTestId('consent-notice')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('Profile: lists consents and withdraws after an in-app confirmation', async () => {
    const calls = server({ consented: true });
    at('/profile', <ConsentsCard />);
    expect(await screen.findByText('Privacy notice v9')).toBeTruthy();
    expect(screen.getByText(/हिन्दी · agreed/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent to notice v9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw consent?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(calls).toContain('DELETE /users/me/consents/v9'));
    expect(await screen.findByText(/You have not agreed to the privacy notice yet/)).toBeTruthy();
  });
});
