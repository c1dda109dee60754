import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { DoctorHomeGuard, PatientHomeGuard, RequireAuth, RootRoute } from './guards';
import { sessionStore, type SessionUser } from '../lib/session';

const signIn = (account_type: SessionUser['account_type']) =>
  sessionStore.set({ token: 't', refreshToken: null, user: { id: 'u', user_id: 'u', name: 'N', email: null, account_type }, authProvider: 'google' });

function at(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<RootRoute><p>sign-in page</p></RootRoute>} />
        <Route path="/login" element={<p>login page</p>} />
        <Route path="/home" element={<RequireAuth><PatientHomeGuard><p>patient home</p></PatientHomeGuard></RequireAuth>} />
        <Route path="/doctor-home" element={<RequireAuth><DoctorHomeGuard><p>doctor home</p></DoctorHomeGuard></RequireAuth>} />
        <Route path="/institutions" element={<p>institutions</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('route guards', () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });
  it('sends an unauthenticated user on a protected route to /login', () => {
    at('/home');
    expect(screen.getByText('login page')).toBeTruthy();
  });
  it('sends a signed-in user at / to their home', () => {
    signIn('doctor');
    at('/');
    expect(screen.getByText('doctor home')).toBeTruthy();
  });
  it('/home redirects doctors and admins; /doctor-home redirects patients', () => {
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
    expect(screen.getByText('patient home')).toBeTruthy();
  });
  it('treats an unspecified account type (user) as a patient', () => {
    signIn('user');
    at('/');
    expect(screen.getByText('patient home')).toBeTruthy();
  });
});
