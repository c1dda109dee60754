import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { bundledArticleView } from '@telemed/contracts/bundled-articles';
import { ToastProvider } from '../../lib/toasts';
import { json } from '../../test/render';
import { BlogPostPage } from '../blog/BlogPostPage';
import { DoctorLandingPage } from './DoctorLandingPage';
import { DOCTOR_PROFILES } from './content';

/** The server answers a bundled article as it does (from the same static content); everything else is not found. */
function stubApi() {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push(`${init.method ?? 'GET'} ${url}`);
    const slug = /^\/api\/v1\/public\/blogs\/([^/?]+)$/.exec(url)?.[1];
    const view = slug ? bundledArticleView(decodeURIComponent(slug)) : null;
    return view ? json(200, view) : json(404, { detail: 'Not found' });
  });
  return calls;
}

function renderAt(path: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/blog/:slug" element={<BlogPostPage />} />
            <Route path="/:doctorId" element={<DoctorLandingPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the sample profiles' articles", () => {
  it('every profile lists its articles as links to /blog/{slug}', () => {
    for (const profile of DOCTOR_PROFILES) expect(profile.blogPosts.length, profile.id).toBeGreaterThan(0);
    expect(DOCTOR_PROFILES[0]!.blogPosts[0]).toEqual({ title: 'बुखार में क्या करें', titleInEnglish: 'What to do about a fever', link: '/blog/what-to-do-about-a-fever', date: '2026-10-02' });
  });

  it("opens from the profile like a published post, and its Book Consultation leads to the profile's booking tab", async () => {
    const calls = stubApi();
    renderAt('/dr-ananya-sharma');
    fireEvent.click(await screen.findByRole('link', { name: 'What to do about a fever' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'What to do about a fever' })).toBeTruthy();
    expect(screen.getByText('बुखार में क्या करें')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dr. Ananya Sharma' }).getAttribute('href')).toBe('/dr-ananya-sharma');
    expect(screen.getByText('Medical Advice')).toBeTruthy();
    expect(screen.getByText(/\d+ min read/)).toBeTruthy();
    expect(screen.getByText(/general information, not a diagnosis/)).toBeTruthy();
    // A bundled article counts no views.
    expect(calls.some((c) => c.startsWith('POST'))).toBe(false);
    fireEvent.click(screen.getByRole('link', { name: 'Book Consultation' }));
    expect((await screen.findByRole('tab', { name: 'Book Consultation' })).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('No open slots on a sample profile')).toBeTruthy();
  });
});
