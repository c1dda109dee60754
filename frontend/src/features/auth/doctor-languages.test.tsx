import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useQueryClient } from '@tanstack/react-query';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { ProfilePage } from './ProfilePage';

/** What a write of the user's own does (a language picked on the page is one): every query read again. */
function ReadAgain() {
  const queryClient = useQueryClient();
  return <button onClick={() => void queryClient.invalidateQueries()}>read again</button>;
}

const doctor = { specialty: 'ENT', qualification: 'MBBS', consultation_fee: 500, appointment_duration_minutes: 30, registration_number: 'R-1', medical_council: null, city: null, languages: ['hi'] };

describe("a doctor's languages on the profile (issue 33)", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  it('shows the languages kept, by their own names, and saves the ones chosen in the product order', async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Farah', email: null, account_type: 'doctor' }, authProvider: 'google' });
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url === '/api/v1/users/me' && init?.method === 'PUT') {
        sent.push(JSON.parse(String(init.body)));
        return json(200, { status: 'success' });
      }
      if (url === '/api/v1/users/me') return json(200, { user_id: 'd1', name: 'Dr. Farah', email: null, phone_number: null, account_type: 'doctor', doctor, language: null });
      return json(404, { detail: 'Not found', code: 'not_found' });
    });
    renderAt('/profile', <ProfilePage />);

    const field = await screen.findByRole('combobox', { name: 'Languages you consult in' });
    expect(field.textContent).toBe('हिन्दी');
    fireEvent.mouseDown(field);
    fireEvent.click(await screen.findByRole('option', { name: 'தமிழ்' }));
    fireEvent.click(await screen.findByRole('option', { name: 'English' }));
    fireEvent.keyDown(await screen.findByRole('listbox'), { key: 'Escape' });
    await waitFor(() => expect(field.textContent).toBe('English, हिन्दी, தமிழ்'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ languages: ['en', 'hi', 'ta'] });
  });

  it('keeps what was typed when the profile is read again (a language picked on the page), taking the rest from the server', async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Farah', email: null, account_type: 'doctor' }, authProvider: 'google' });
    let name = 'Dr. Farah';
    vi.stubGlobal('fetch', async (url: string) => {
      if (url === '/api/v1/users/me') return json(200, { user_id: 'd1', name, email: null, phone_number: null, account_type: 'doctor', doctor, language: null });
      return json(404, { detail: 'Not found', code: 'not_found' });
    });
    renderAt('/profile', (
      <>
        <ProfilePage />
        <ReadAgain />
      </>
    ));
    const city = await screen.findByRole('textbox', { name: 'City' });
    fireEvent.change(city, { target: { value: 'Pune' } });
    name = 'Dr. Farah Khan';
    fireEvent.click(screen.getByRole('button', { name: 'read again' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).value).toBe('Dr. Farah Khan'));
    expect((city as HTMLInputElement).value).toBe('Pune');
  });
});
