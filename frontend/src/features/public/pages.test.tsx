import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { DoctorLandingPage } from './DoctorLandingPage';
import { WelcomePage } from './WelcomePage';
import { profileFor } from './content';

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
  afterEach(cleanup);
  it('a doctor page has the four tabs and sign-in; unknown ids fall back to a bundled profile', async () => {
    renderAt('/dr-kavya-reddy');
    expect(screen.getByRole('heading', { name: 'Dr. Kavya Reddy' })).toBeTruthy();
    for (const tab of ['About Doctor', 'Medical Offerings', 'Practice Info', 'Book Consultation']) expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Practice Info' }));
    expect(screen.getByText('Banjara Hills, Hyderabad')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Phone' }));
    // The Coming Soon dialog is its own chunk, loaded on the first tap (or after the page has loaded).
    expect(await screen.findByText('Phone login will be available soon. Please continue with Google.')).toBeTruthy();
    expect(profileFor('nobody').id).toBe('dr-ananya-sharma');
    expect(profileFor(undefined).id).toBe('dr-ananya-sharma');
  });
  it('the welcome page pitches the product, its plans and its roadmap', () => {
    renderAt('/welcome');
    for (const name of ['Get Started', 'Learn More', 'Schedule a Demo', 'Contact Sales']) expect(screen.getByText(name)).toBeTruthy();
    expect(screen.getAllByText('In Development')).toHaveLength(3);
    expect(screen.getByText('₹2,999 per month')).toBeTruthy();
    expect(screen.getByText('Support Team Access')).toBeTruthy();
  });
});
