import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AppointmentsDialog } from './InstitutionsPage';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const appointment = (n: number) => ({
  id: `a-${n}`,
  patient: { name: `Patient ${n}` },
  doctor: { name: 'Dr. Rao' },
  slot: { start_at: new Date(Date.UTC(2026, 0, 1) - n * 3_600_000).toISOString() },
  status: 'confirmed',
  notes: '',
});

describe("an institution's confirmed appointments dialog", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for a page at a time (never the whole history) and shows older ones on request', async () => {
    const fetch = vi.fn(async (url: string) => json(url.includes('cursor=') ? [101, 102, 103].map(appointment) : Array.from({ length: 100 }, (_, i) => appointment(i + 1))));
    vi.stubGlobal('fetch', fetch);
    const institution = { id: 'i-1', name: 'Clinic A', slug: 'clinic-a', is_active: true, address: '', phone: '', email: '' };
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AppointmentsDialog institution={institution} onClose={() => undefined} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Patient 100')).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/v1/institutions/i-1/appointments?appointment_status=confirmed&limit=100');
    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await screen.findByText('Patient 103')).toBeTruthy();
    expect(String(fetch.mock.calls[1]![0])).toBe('/api/v1/institutions/i-1/appointments?appointment_status=confirmed&limit=100&cursor=a-100');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull());
  });
});
