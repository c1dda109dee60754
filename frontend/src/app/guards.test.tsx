import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DoctorHomeGuard, RequireAuth, RootRoute } from './guards';
import { PatientHomeGuard } from './PatientHomeGuard';
import { sessionStore, type SessionUser } from '../lib/session';

const signIn = (account_type: SessionUser['account_type']) =>
  sessionStore.set({ token: 't', refreshToken: null, user: { id: 'u', user_id: 'u', name: 'N', email: null, account_type }, authProvider: 'google' });

let institutionAdmin = false;

function at(path: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<RootRoute><p>sign-in page</p></RootRoute>} />
        <Route path="/login" element={<p>login page</p>} />
        <Route path="/home" element={<RequireAuth><PatientHomeGuard clinicAdmin={<p>their institution at /home</p>}><p>patient home</p></PatientHomeGuard></RequireAuth>} />
        <Route path="/doctor-home" element={<RequireAuth><DoctorHomeGuard><p>doctor home</p></DoctorHomeGuard></RequireAuth>} />
        <Route path="/institutions" element={<p>institutions</p>} />
        <Route path="/institution-admin" element={<p>manage institution</p>} />
      </Routes>
    </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('route guards', () => {
  beforeEach(() => {
    institutionAdmin = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ is_institution_admin: institutionAdmin, institution_id: null }), { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
  });
  afterEach(() => {
    cleanup();
    sessionStore.clear();
    vi.unstubAllGlobals();
  });
  it('sends an unauthenticated user on a protected route to /login', () => {
    signIn('patient');
    sessionStorage.clear(); // a visitor who never signed in on this page (not one who just logged out)
    at('/home');
    expect(screen.getByText('login page')).toBeTruthy();
  });
  it('sends a user who just logged out to /, the seeds’ logout target', () => {
    signIn('patient');
    sessionStore.clear();
    at('/home');
    expect(screen.getByText('sign-in page')).toBeTruthy();
  });
  it('sends a signed-in user at / to their home', () => {
    signIn('doctor');
    at('/');
    expect(screen.getByText('doctor home')).toBeTruthy();
  });
  it('/home redirects doctors and admins; /doctor-home redirects patients', async () => {
    signIn('doctor');
    at('/home');
    expect(screen.getByText('doctor home')).toBeTruthy();
    cleanup();
    signIn('admin');
    at('/home');
    expect(screen.getByText('institutions')).toBeTruthy();
    cleanup();
    signIn('patient');
    at('/doctor-home');
    expect(await screen.findByText('patient home')).toBeTruthy();
  });
  // Changed with issue 31: the seeds land every non-doctor on /home; a clinic's admin is no longer sent away from it.
  it("shows a clinic's admin (a staff account) their institution at /home, where they land", async () => {
    institutionAdmin = true;
    signIn('patient');
    at('/home');
    expect(await screen.findByText('their institution at /home')).toBeTruthy();
    expect(screen.queryByText('patient home')).toBeNull();
  });
  it('treats an unspecified account type (user) as a patient', async () => {
    signIn('user');
    at('/');
    expect(await screen.findByText('patient home')).toBeTruthy();
  });
});
