import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderAt } from '../test/render';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { sessionStore } from '../lib/session';
import { ConfirmAppointment } from './patient/ConfirmAppointment';
import { SupportLogin } from './auth/SupportLogin';
import { InstitutionsPage } from './institution/InstitutionsPage';
import { slotFacts } from '../test/slotFacts';

const at = renderAt;

describe('forms', () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  const facts = slotFacts;
  /** The slot's facts for GET /slots/12, and `onPost` for the request. */
  const server = (availability: string, onPost: () => Promise<Response>) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => (init?.method === 'POST' ? onPost() : String(url).includes('/slots/12') ? json(200, facts(availability)) : json(404, { detail: 'Not found' }))),
    );

  it('Request Appointment: no slot id and a bad slot id are shown as the seeds word them', async () => {
    at('/confirm-appointment?doctorName=Dr.%20A', <ConfirmAppointment />);
    expect(await screen.findByText('Error: No slot ID provided')).toBeTruthy();
    cleanup();
    at('/confirm-appointment?slot_id=abc', <ConfirmAppointment />);
    expect(await screen.findByText('Error: Invalid slot ID')).toBeTruthy();
  });

  it("Request Appointment: shows the server's doctor, time and fee, never the URL's, and the server's detail on failure", async () => {
    server('open', async () => json(409, { detail: 'This slot is already booked' }));
    at('/confirm-appointment?slot_id=12&doctorName=Dr.%20Fake%20Person', <ConfirmAppointment />);
    expect(await screen.findByText('Dr. Kavya Rao')).toBeTruthy();
    expect(screen.queryByText(/Fake Person/)).toBeNull();
    expect(screen.getByText(/Consultation fee ₹450/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Error: This slot is already booked')).toBeTruthy();
  });

  it('Request Appointment: a slot that is gone says so with a way to pick another time; one already requested points to My Appointments', async () => {
    server('taken', async () => json(500, {}));
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    expect(await screen.findByText('This slot has just been booked by someone else.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pick another time' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send Request' })).toBeNull();
    cleanup();
    server('requested_by_you', async () => json(500, {}));
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    expect(await screen.findByText(/You have already requested this slot/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My Appointments' })).toBeTruthy();
  });

  it('Request Appointment: sending state, then Request Sent!', async () => {
    let release!: (r: Response) => void;
    server('open', () => new Promise<Response>((r) => (release = r)));
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    fireEvent.change(await screen.findByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    const sending = await screen.findByRole('button', { name: 'Sending...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    release(json(201, { appointment_id: 'a', status: 'requested' }));
    expect(await screen.findByText('Request Sent!')).toBeTruthy();
  });

  it('Support sign-in: the server’s detail, or the network message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { detail: 'Invalid email or password' })));
    at('/support', <SupportLogin />);
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'a@b.in' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Network error. Please try again.')).toBeTruthy();
  });

  it('Create Institution: at least one staff member is required', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, [])));
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'u', user_id: 'u', name: 'Ops', email: null, account_type: 'admin' }, authProvider: 'password' });
    at('/institutions', <InstitutionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create Institution' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove staff member 1' }));
    const dialog = screen.getByRole('dialog');
    const form = dialog.querySelector('form')!;
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByText('At least one staff member is required')).toBeTruthy());
  });
});
