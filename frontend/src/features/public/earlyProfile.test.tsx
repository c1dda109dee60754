import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { DoctorLandingPage } from './DoctorLandingPage';
import { prefetchPublicDoctor, publicDoctorPath, requestZone, takePrefetchedPublicDoctor } from './earlyProfile';

const ID = '34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e';
const DOCTOR = {
  doctor_id: ID,
  name: 'Dr. Farah Khan',
  specialty: 'ENT',
  qualification: 'MBBS, MS (ENT)',
  consultation_fee: 650,
  appointment_duration_minutes: 30,
  registration_number: null,
  medical_council: null,
  languages: [],
  days: 7,
  accepting_bookings: true,
  slots: [],
};

function stubApi(calls: string[]) {
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    if (url.startsWith(`/api/v1/public/doctors/${ID}`)) return new Response(JSON.stringify(DOCTOR), { status: 200 });
    if (url.endsWith('/blogs')) return new Response('[]', { status: 200 });
    return new Response(JSON.stringify({ detail: 'Doctor not found' }), { status: 404 });
  });
}

describe("a registered doctor's page asks for the profile as the app starts", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('the page shows the early answer without asking again', async () => {
    const calls: string[] = [];
    stubApi(calls);
    prefetchPublicDoctor(`/${ID}`);
    expect(calls).toEqual([`/api/v1${publicDoctorPath(ID)}`]);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ToastProvider>
          <MemoryRouter initialEntries={[`/${ID}`]}>
            <Routes>
              <Route path="/:doctorId" element={<DoctorLandingPage />} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Dr. Farah Khan' })).toBeTruthy();
    expect(calls.filter((url) => url.startsWith(`/api/v1/public/doctors/${ID}?`))).toHaveLength(1);
    // Used once: a later read asks the server again.
    expect(takePrefetchedPublicDoctor(publicDoctorPath(ID))).toBeNull();
  });

  it("asks in India's time as the server's page preloads it, whichever name the browser gives that zone", () => {
    expect(requestZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(requestZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(requestZone('Europe/London')).toBe('Europe/London');
    expect(publicDoctorPath(ID, requestZone('Asia/Calcutta'))).toBe(`/public/doctors/${ID}?timezone_str=Asia%2FKolkata`);
  });

  it('other paths (sign-in, welcome, a bundled sample profile) start no request', () => {
    const calls: string[] = [];
    stubApi(calls);
    for (const path of ['/login', '/welcome', '/dr-kavya-reddy', '/', `/verify/${ID}`]) prefetchPublicDoctor(path);
    expect(calls).toEqual([]);
  });

  it('an early request for another doctor or time zone is not used', async () => {
    const calls: string[] = [];
    stubApi(calls);
    prefetchPublicDoctor(`/${ID}`);
    const elsewhere = publicDoctorPath(ID, 'Pacific/Chatham');
    expect(elsewhere).not.toBe(publicDoctorPath(ID));
    expect(takePrefetchedPublicDoctor(elsewhere)).toBeNull();
    expect(takePrefetchedPublicDoctor(publicDoctorPath('0f0f0f0f-d7f4-4dd7-8824-a28eedd3ef7e'))).toBeNull();
    expect(await takePrefetchedPublicDoctor(publicDoctorPath(ID))).toBeInstanceOf(Response);
  });
});
