import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import { json, renderAt } from '../test/render';
import { sessionStore } from '../lib/session';
import { UNSAVED_CHANGES_QUESTION } from '../lib/unsavedChanges';
import { AvailabilityCalendar } from './doctor/calendar/AvailabilityCalendar';
import { addDays, keyOf, todayIn, weekStart } from './doctor/calendar/model';
import { ProfilePage } from './auth/ProfilePage';

const asked = () => screen.queryByText(UNSAVED_CHANGES_QUESTION.title);
const zone = 'Asia/Kolkata';
// The profile's Messages section reads the account's channels (issue 34).
const MESSAGING = { channels: { email: true, sms: true, whatsapp: false }, time_zone: null, verified_phone: null, has_email: false, available: ['email'] };
// A doctor's profile has their booking rules (issue 35).
const RULES = { doctor_id: 'd1', min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false, source: 'default' };

beforeEach(() => sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.clear();
});

describe('the availability editor asks before chosen slots are dropped', () => {
  it('Cancel with a slot chosen asks: Keep editing keeps it, Discard closes; untouched, Cancel closes at once', async () => {
    const onCancel = vi.fn();
    renderAt('/', <AvailabilityCalendar open zone={zone} initial={new Set()} booked={new Set()} saving={false} onCancel={onCancel} onSave={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
    expect(asked()).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Next week' }));
    const slot = keyOf(addDays(weekStart(todayIn(zone)), 8), 6);
    fireEvent.keyDown(document.querySelector(`[data-slot="${slot}"]`) as HTMLElement, { key: 'Enter' });
    expect(screen.getByText(/Selected: 1 slots/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/Selected: 1 slots/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onCancel).toHaveBeenCalledTimes(2));
  });
});

describe('the profile asks before an edit not saved is left', () => {
  function Profile() {
    return (
      <>
        <Link to="/home">Home</Link>
        <ProfilePage />
      </>
    );
  }

  it('an edited name asks before another page; once saved, the page goes without asking', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      if (url === '/api/v1/users/me' && init.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        return json(200, { status: 'ok' });
      }
      if (url === '/api/v1/users/me') return json(200, { user_id: 'p1', name: 'Priya', email: null, phone_number: null, account_type: 'patient', doctor: null });
      if (url === '/api/v1/users/me/consents') return json(200, { consents: [], has_current_consent: true });
      if (url.startsWith('/api/v1/users/me/access-log')) return json(200, { entries: [], next_cursor: null });
      if (url === '/api/v1/users/me/messaging') return json(200, MESSAGING);
      if (url === '/api/v1/doctors/d1/booking-rules') return json(200, RULES);
      return json(200, []);
    });
    renderAt('/profile', <Profile />);
    const name = (await screen.findByLabelText(/Name/)) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Priya'));
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    await screen.findByText('elsewhere');
    expect(asked()).toBeNull();
    cleanup();

    renderAt('/profile', <Profile />);
    const again = (await screen.findByLabelText(/Name/)) as HTMLInputElement;
    await waitFor(() => expect(again.value).toBe('Priya'));
    await userEvent.type(again, ' Patel');
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect(again.value).toBe('Priya Patel');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    await userEvent.click(await screen.findByRole('link', { name: 'Home' }));
    await screen.findByText('elsewhere');
    expect(asked()).toBeNull();
  });

  it("a doctor's City shows what is saved, asks before an unsaved edit is left, and is sent trimmed (emptied: null)", async () => {
    const puts: Array<Record<string, unknown>> = [];
    const doctor = { specialty: 'ENT', qualification: 'MBBS', consultation_fee: 500, registration_number: null, medical_council: null, city: 'Pune' };
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      if (url === '/api/v1/users/me' && init.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return json(200, { status: 'ok' });
      }
      if (url === '/api/v1/users/me') return json(200, { user_id: 'd1', name: 'Dr. A', email: null, phone_number: null, account_type: 'doctor', doctor });
      if (url.startsWith('/api/v1/users/me/access-log')) return json(200, { entries: [], next_cursor: null });
      if (url === '/api/v1/users/me/messaging') return json(200, MESSAGING);
      if (url === '/api/v1/doctors/d1/booking-rules') return json(200, RULES);
      return json(200, []);
    });
    renderAt('/profile', <Profile />);
    const city = (await screen.findByLabelText('City')) as HTMLInputElement;
    await waitFor(() => expect(city.value).toBe('Pune'));
    await userEvent.clear(city);
    await userEvent.type(city, '  Nagpur ');
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect(city.value).toBe('  Nagpur ');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.city).toBe('Nagpur');
    await userEvent.clear(city);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]!.city).toBeNull();
    await userEvent.click(await screen.findByRole('link', { name: 'Home' }));
    await screen.findByText('elsewhere');
    expect(asked()).toBeNull();
  });
});
