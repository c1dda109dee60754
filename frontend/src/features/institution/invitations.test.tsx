import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '../../lib/toasts';
import { INVITATION_TEXTS, InvitationPage, PendingInvitations, type Invitation } from './Invitations';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const invitation: Invitation = {
  id: 'inv-1',
  institution: { id: 'i-1', name: 'Clinic A', slug: 'clinic-a' },
  user_id: 'u-1',
  name: 'Dr. Dev',
  email: 'dev@b.in',
  account_type: 'DOCTOR',
  role_title: null,
  status: 'pending',
  invited_at: '2026-01-01T00:00:00Z',
};

function at(path: string, pattern: string, element: ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={pattern} element={element} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('institution invitations', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists pending invitations with Accept and Decline; accepting posts to the invitation', async () => {
    const fetch = vi.fn(async (url: string, init?: RequestInit) => (init?.method === 'POST' ? json(200, { status: 'success' }) : json(200, [invitation])));
    vi.stubGlobal('fetch', fetch);
    at('/doctor-home', '/doctor-home', <PendingInvitations />);
    expect(await screen.findByText('Clinic A')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(INVITATION_TEXTS.accepted)).toBeTruthy();
    expect(fetch.mock.calls.some(([url, init]) => url === '/api/v1/institutions/i-1/invitations/inv-1/accept' && init?.method === 'POST')).toBe(true);
  });

  it('shows nothing when there are no invitations', async () => {
    const fetch = vi.fn(async () => json(200, []));
    vi.stubGlobal('fetch', fetch);
    at('/home', '/home', <PendingInvitations />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.queryByText(INVITATION_TEXTS.heading)).toBeNull();
  });

  it('/invitations/:id shows the invitation, or says it is not theirs', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { ...invitation, status: 'accepted' })));
    at('/invitations/inv-1', '/invitations/:id', <InvitationPage />);
    expect(await screen.findByText(INVITATION_TEXTS.answered.accepted)).toBeTruthy();
    cleanup();
    vi.stubGlobal('fetch', vi.fn(async () => json(404, { detail: 'Invitation not found' })));
    at('/invitations/nope', '/invitations/:id', <InvitationPage />);
    expect(await screen.findByText(INVITATION_TEXTS.notFound)).toBeTruthy();
  });
});
