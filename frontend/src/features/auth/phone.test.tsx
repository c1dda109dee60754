import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { PHONE_SIGN_IN } from '@telemed/contracts';
import { ToastProvider } from '../../lib/toasts';
import { sessionStore } from '../../lib/session';
import { I18nProvider } from '../../i18n/I18nProvider';
import { json } from '../../test/render';
import { elapse, useFakeClock } from '../../test/clock';
import { SignInButtons } from './LoginPage';
import { PHONE_CODE_LENGTH } from './PhoneCodeForm';

const SENT = { status: 'code_sent', phone_number: '+919876543210', channel: 'sms', resend_after_seconds: 30, expires_in_seconds: 300, challenge: 'challenge-from-the-start-answer' };
const SIGNED_IN = {
  status: 'success',
  access_token: 'access-1',
  refresh_token: 'refresh-1',
  token_type: 'bearer',
  expires_in: 3600,
  user: { id: 'p9', user_id: 'p9', name: 'Asha Rao', email: null, account_type: 'patient', role: 'user' },
};

type Call = { method: string; url: string; body: unknown };

/** The API as these screens meet it: each answer by method and path, every request recorded. */
function stubApi(answers: Record<string, (body: unknown) => Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const answer = answers[`${method} ${url}`];
    return answer ? answer(body) : json(404, { detail: 'Not found', code: 'not_found' });
  });
  return calls;
}

const bodiesOf = (calls: Call[], key: string) => calls.filter((c) => `${c.method} ${c.url}` === key).map((c) => c.body);

/** "Continue with Phone" as a doctor's public page has it: signing in there comes back to the page picked. */
function renderSignIn(language?: 'hi') {
  const router = createMemoryRouter(
    [
      { path: '/dr-asha', element: <SignInButtons intent={{ path: '/my-appointments' }} /> },
      { path: '/my-appointments', element: <p>my appointments</p> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/dr-asha'] },
  );
  const page = (
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>
  );
  render(language ? <I18nProvider language={language}>{page}</I18nProvider> : page);
}

async function sendCode(number = '98765 43210', names = { open: 'Continue with Phone', field: 'Mobile number', send: 'Send code' }) {
  fireEvent.click(await screen.findByRole('button', { name: names.open }));
  // The dialog is its own chunk, loaded on the first tap (or once the page has loaded).
  fireEvent.change(await screen.findByRole('textbox', { name: names.field }), { target: { value: number } });
  fireEvent.click(screen.getByRole('button', { name: names.send }));
}

describe('sign-in by phone (issue 34)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    sessionStore.clear();
    sessionStorage.clear();
  });

  it('sends a code to the number as typed, then signs in with the code as Google does and goes where the visitor was headed', async () => {
    const calls = stubApi({
      'POST /api/v1/auth/phone/start': () => json(200, SENT),
      'POST /api/v1/auth/phone/verify': () => json(200, SIGNED_IN),
      'GET /api/v1/users/me': () => json(200, { user_id: 'p9', name: 'Asha Rao', email: null, phone_number: '+919876543210', account_type: 'patient', doctor: null, language: null }),
    });
    renderSignIn();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Phone' }));
    const number = await screen.findByRole('textbox', { name: 'Mobile number' });
    expect(number.getAttribute('type')).toBe('tel');
    expect(number.getAttribute('autocomplete')).toBe('tel');
    fireEvent.change(number, { target: { value: '98765 43210' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('We sent a code to +919876543210 by SMS. It works for 5 minutes.')).toBeTruthy();
    expect(bodiesOf(calls, 'POST /api/v1/auth/phone/start')).toEqual([{ phone_number: '98765 43210' }]);

    const code = screen.getByRole('textbox', { name: 'Code' });
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    expect(verify.hasAttribute('disabled')).toBe(true);
    // Only digits, at most six: a pasted "123 456" is the code.
    fireEvent.change(code, { target: { value: '123 4567' } });
    expect((code as HTMLInputElement).value).toBe('123456');
    fireEvent.click(verify);

    expect(await screen.findByText('Welcome, Asha Rao!')).toBeTruthy();
    expect(await screen.findByText('my appointments')).toBeTruthy();
    // The number as the server read it, with the code.
    expect(bodiesOf(calls, 'POST /api/v1/auth/phone/verify')).toEqual([{ phone_number: '+919876543210', code: '123456', challenge: 'challenge-from-the-start-answer' }]);
    expect(sessionStore.get()).toMatchObject({ token: 'access-1', refreshToken: 'refresh-1', user: { name: 'Asha Rao' } });
  });

  it('Change number goes back to the number as it was typed', async () => {
    stubApi({ 'POST /api/v1/auth/phone/start': () => json(200, SENT) });
    renderSignIn();
    await sendCode('+91 98765 43210');
    fireEvent.click(await screen.findByRole('button', { name: 'Change number' }));
    expect((screen.getByRole('textbox', { name: 'Mobile number' }) as HTMLInputElement).value).toBe('+91 98765 43210');
  });

  it('Resend code waits the seconds the server named, counting down, then sends again to the same number', async () => {
    useFakeClock();
    const calls = stubApi({ 'POST /api/v1/auth/phone/start': () => json(200, SENT) });
    renderSignIn();
    await sendCode();
    const waiting = await screen.findByRole('button', { name: 'Resend code in 30 seconds' });
    expect(waiting.hasAttribute('disabled')).toBe(true);
    await elapse(29_000);
    expect(screen.getByRole('button', { name: 'Resend code in 1 second' }).hasAttribute('disabled')).toBe(true);
    await elapse(1000);
    const resend = screen.getByRole('button', { name: 'Resend code' });
    expect(resend.hasAttribute('disabled')).toBe(false);
    await act(async () => {
      fireEvent.click(resend);
    });
    expect(await screen.findByText('A new code is on its way.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend code in 30 seconds' })).toBeTruthy();
    expect(bodiesOf(calls, 'POST /api/v1/auth/phone/start')).toEqual([{ phone_number: '98765 43210' }, { phone_number: '+919876543210' }]);
  });

  it('says what went wrong in the language chosen: a wrong code, a wait, a refused number (Hindi)', async () => {
    useFakeClock();
    let starts = 0;
    stubApi({
      'POST /api/v1/auth/phone/start': () => {
        starts += 1;
        if (starts === 1) return json(422, { detail: 'Enter a valid mobile number', code: 'phone_invalid' });
        if (starts === 2) return json(200, SENT);
        return json(429, { detail: 'You can ask for a new code in 25 seconds.', code: 'phone_resend_wait', values: ['25'] });
      },
      'POST /api/v1/auth/phone/verify': () => json(401, { detail: 'That code is not right. Check the SMS and try again.', code: 'phone_code_wrong' }),
    });
    renderSignIn('hi');
    const hindi = { open: 'फ़ोन से जारी रखें', field: 'मोबाइल नंबर', send: 'कोड भेजें' };
    await sendCode('12345', hindi);
    expect((await screen.findByRole('alert')).textContent).toBe('सही मोबाइल नंबर डालें');

    fireEvent.change(screen.getByRole('textbox', { name: hindi.field }), { target: { value: '98765 43210' } });
    fireEvent.click(screen.getByRole('button', { name: hindi.send }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'कोड' }), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'वेरिफ़ाई करें' }));
    expect((await screen.findByRole('alert')).textContent).toBe('यह कोड सही नहीं है। SMS देखें और फिर से कोशिश करें।');

    // Resend asked before the server allows it: its wait, in words and on the countdown.
    await elapse(30_000);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'कोड फिर से भेजें' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe('आप 25 सेकंड बाद नया कोड मँगा सकते हैं।');
    expect(screen.getByRole('button', { name: '25 सेकंड में कोड फिर से भेजें' }).hasAttribute('disabled')).toBe(true);
  });

  it("the code's length is the contracts' (this module repeats it so that the bundle has no zod)", () => {
    expect(PHONE_CODE_LENGTH).toBe(PHONE_SIGN_IN.codeLength);
  });
});
