import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '../lib/toasts';
import { sessionStore } from '../lib/session';
import { ConfirmAppointment } from './patient/ConfirmAppointment';
import { SupportLogin } from './auth/SupportLogin';
import { InstitutionsPage } from './institution/InstitutionsPage';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function at(path: string, element: ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={path.split('?')[0]} element={element} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('forms', () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  it('Request Appointment: no slot id, a bad slot id, and the server’s detail are shown as the seeds word them', async () => {
    at('/confirm-appointment?doctorName=Dr.%20A', <ConfirmAppointment />);
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Error: No slot ID provided')).toBeTruthy();
    cleanup();

    at('/confirm-appointment?slot_id=abc', <ConfirmAppointment />);
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Error: Invalid slot ID')).toBeTruthy();
    cleanup();

    vi.stubGlobal('fetch', vi.fn(async () => json(409, { detail: 'This slot is already booked' })));
    at('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Error: This slot is already booked')).toBeTruthy();
  });

  it('Request Appointment: sending state, then Request Sent!', async () => {
    let release!: (r: Response) => void;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((r) => (release = r))));
    at('/confirm-appointment?slot_id=12&doctorName=Dr.%20A', <ConfirmAppointment />);
    fireEvent.change(screen.getByLabelText(/Reason for Visit/), { target: { value: 'Cough' } });
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
