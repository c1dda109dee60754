import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { OutboxEntry } from '@telemed/contracts';
import { json, renderAt } from '../../test/render';
import { elapse, useFakeClock, waitOnClock } from '../../test/clock';
import { DevOutboxPage, FILTER_DEBOUNCE_MS, OUTBOX_POLL_MS } from './DevOutboxPage';

const entry = (id: string, over: Partial<OutboxEntry>): OutboxEntry => ({
  id,
  message_id: `m-${id}`,
  channel: 'sms',
  kind: 'sign_in_code',
  language: 'en',
  to: '+919876543210',
  subject: '',
  text: 'Your sign-in code is 123456. It works for 5 minutes.',
  created_at: '2030-01-02T06:30:00Z',
  ...over,
});

const OLDER = entry('1', { created_at: '2030-01-02T06:30:00Z', text: 'Your sign-in code is 111111. It works for 5 minutes.' });
const NEWER = entry('2', {
  channel: 'email',
  kind: 'appointment_approved',
  to: 'asha@example.in',
  subject: 'Your consultation is confirmed',
  text: 'Dr. Kabir confirmed your consultation on 3 Jan at 10:00 am.\nJoin: http://localhost/video-call?appointment=a1',
  created_at: '2030-01-02T07:45:00Z',
});

/** The outbox route: the entries (to the recipient asked for, if any, as the server finds one), every query string recorded. */
function stubOutbox(entries: () => OutboxEntry[], status = 200): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    if (pathname !== '/api/v1/dev/outbox') return json(404, { detail: 'Not found', code: 'not_found' });
    asked.push(searchParams.toString());
    if (status !== 200) return json(status, { detail: 'Not found', code: 'not_found' });
    const recipient = searchParams.get('recipient');
    return json(200, entries().filter((e) => !recipient || e.to.toLowerCase() === recipient.trim().toLowerCase()));
  });
  return asked;
}

const listed = () => within(screen.getByTestId('outbox-list')).queryAllByTestId('outbox-entry');

describe('the development outbox (issue 34)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('lists the messages newest first with channel, recipient, kind, subject, text and time, and filters by recipient', async () => {
    useFakeClock();
    const asked = stubOutbox(() => [OLDER, NEWER]);
    renderAt('/dev/outbox', <DevOutboxPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Development outbox' })).toBeTruthy();
    await waitOnClock(() => expect(listed()).toHaveLength(2));

    const [first, second] = listed();
    expect(within(first!).getByText('E-mail')).toBeTruthy();
    expect(within(first!).getByText('To: asha@example.in')).toBeTruthy();
    expect(within(first!).getByText('appointment_approved · en')).toBeTruthy();
    expect(within(first!).getByText('Your consultation is confirmed')).toBeTruthy();
    expect(within(first!).getByText(/Join: http:\/\/localhost\/video-call\?appointment=a1/)).toBeTruthy();
    const when = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(new Date(NEWER.created_at));
    expect(within(first!).getByText(when).getAttribute('datetime')).toBe(NEWER.created_at);
    expect(within(second!).getByText('SMS')).toBeTruthy();
    expect(within(second!).getByText('To: +919876543210')).toBeTruthy();
    expect(within(second!).getByText(/111111/)).toBeTruthy();

    fireEvent.change(screen.getByRole('textbox', { name: 'Recipient' }), { target: { value: ' asha@example.in ' } });
    await elapse(FILTER_DEBOUNCE_MS);
    await waitOnClock(() => expect(listed()).toHaveLength(1));
    expect(within(listed()[0]!).getByText('To: asha@example.in')).toBeTruthy();
    expect(asked.at(-1)).toBe('recipient=asha%40example.in');
  });

  it('asks again every few seconds while the page is shown, and not while it is hidden', async () => {
    useFakeClock();
    let entries = [OLDER];
    const asked = stubOutbox(() => entries);
    renderAt('/dev/outbox', <DevOutboxPage />);
    await waitOnClock(() => expect(listed()).toHaveLength(1));

    entries = [OLDER, NEWER];
    await elapse(OUTBOX_POLL_MS);
    await waitOnClock(() => expect(listed()).toHaveLength(2));

    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    const before = asked.length;
    await elapse(OUTBOX_POLL_MS * 4);
    expect(asked.length).toBe(before);

    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await elapse(OUTBOX_POLL_MS);
    expect(asked.length).toBeGreaterThan(before);
  });

  it('in production (404) says the outbox is not available, and stops asking', async () => {
    useFakeClock();
    const asked = stubOutbox(() => [], 404);
    renderAt('/dev/outbox', <DevOutboxPage />);
    expect(await screen.findByText('The outbox is not available: this server sends real messages.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Recipient' })).toBeNull();
    await elapse(OUTBOX_POLL_MS * 3);
    expect(asked).toHaveLength(1);
  });

  it('says so when there are no messages yet', async () => {
    stubOutbox(() => []);
    renderAt('/dev/outbox', <DevOutboxPage />);
    expect(await screen.findByText('No messages yet.')).toBeTruthy();
  });
});
