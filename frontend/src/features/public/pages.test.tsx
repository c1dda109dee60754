import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { DoctorLandingPage } from './DoctorLandingPage';
import { WelcomePage } from './WelcomePage';
import { bundledProfile } from './content';
import { json } from '../../test/render';

function renderAt(path: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/welcome" element={<WelcomePage />} />
            <Route path="/:doctorId" element={<DoctorLandingPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('public pages', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  it('a sample doctor page has the four tabs and sign-in, and no invented figures', async () => {
    renderAt('/dr-kavya-reddy');
    expect(screen.getByRole('heading', { name: 'Dr. Kavya Reddy' })).toBeTruthy();
    for (const tab of ['About Doctor', 'Medical Offerings', 'Practice Info', 'Book Consultation']) expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Practice Info' }));
    expect(screen.getByText('Banjara Hills, Hyderabad')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Phone' }));
    // The phone sign-in dialog is its own chunk, loaded on the first tap (or after the page has loaded).
    const phone = await screen.findByRole('dialog', { name: 'Sign in with your mobile number' });
    expect(within(phone).getByRole('textbox', { name: 'Mobile number' })).toBeTruthy();
    fireEvent.click(within(phone).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign in with your mobile number' })).toBeNull());
    expect(screen.getByText('Sample profile')).toBeTruthy();
    expect(screen.getByText('₹449 per consultation')).toBeTruthy();
    // No rating, count of consultations or years of practice for a doctor who has none.
    expect(document.body.textContent).not.toMatch(/★|\b\d\.\d\b|consultations ·|years/);
    expect(bundledProfile('nobody')).toBeUndefined();
  });
  it('a mistyped doctor address says the doctor was not found, with no stand-in profile', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(404, { detail: 'Doctor not found', code: 'not_found' })));
    renderAt('/dr-ananya-sharmaa');
    expect(await screen.findByRole('heading', { name: 'Doctor not found' })).toBeTruthy();
    expect(screen.queryByText('Sample profile')).toBeNull();
    expect(screen.queryByText(/Ananya/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in to find a doctor' }).getAttribute('href')).toBe('/login');
  });
  it('the welcome page pitches the product, its plans and its roadmap', () => {
    renderAt('/welcome');
    for (const name of ['Get Started', 'Learn More', 'Schedule a Demo', 'Contact Sales']) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getAllByText('In Development')).toHaveLength(3);
    expect(screen.getByText('₹2,999 per month')).toBeTruthy();
    expect(screen.getByText('from ₹299 per consultation')).toBeTruthy();
    expect(screen.getByText('Support Team Access')).toBeTruthy();
    // Headings in order (Lighthouse): one h1, and no level skipped on the way down (the tagline was an h6).
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    levels.forEach((level, i) => expect(level).toBeLessThanOrEqual((levels[i - 1] ?? 0) + 1));
  });
});
