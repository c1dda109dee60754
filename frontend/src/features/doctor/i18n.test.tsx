import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { IntlMessageFormat } from 'intl-messageformat';
import { json, renderAt } from '../../test/render';
import { I18nProvider } from '../../i18n/I18nProvider';
import english from '../../i18n/catalogues/en/doctor.json';
import { LOBBY_TEXTS } from '../video/lobbyPresence';
import { DoctorHome } from './DoctorHome';

const messages: Record<string, string> = english;
const blogs = {
  items: [],
  total: 0,
  counts: { all: 0, published: 0, draft: 0, scheduled: 0, archived: 0 },
  categories: [],
  stats: { total_views: 0, this_month: 0, avg_read_time: 0 },
};
const say = (id: string, values?: Record<string, string>) => new IntlMessageFormat(messages[id]!, 'en-IN').format(values);

describe('the doctor catalogue', () => {
  it("says the video lobby's words as LOBBY_TEXTS does, so the dashboard and the call cannot drift apart", () => {
    expect(say('doctor.patientWaiting', { name: 'Asha Rao' })).toBe(LOBBY_TEXTS.patientWaiting('Asha Rao'));
    expect(say('doctor.patientWaitingChip')).toBe(LOBBY_TEXTS.waitingChip);
    expect(say('doctor.goToCall')).toBe(LOBBY_TEXTS.goToCall);
  });
});

describe('the doctor dashboard in Hindi', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows its headings, a request’s date and the month’s revenue in Hindi', async () => {
    const now = Date.now();
    const pending = {
      appointment_id: 'r-1',
      patient_name: 'Ravi Kumar',
      patient_phone: null,
      notes: 'Fever',
      created_at: new Date(now).toISOString(),
      slot: { start_at: '2030-03-15T06:30:00Z' },
    };
    const completed = {
      appointment_id: 'a-1',
      patient_id: 'p-1',
      patient_name: 'Asha Rao',
      status: 'completed',
      consultation_fee: 1500,
      notes: '',
      slot: { start_at: new Date(now - 3_600_000).toISOString() },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/v1/appointments/pending')) return json(200, [pending]);
        if (url.startsWith('/api/v1/appointments/me') && url.includes('include_past')) return json(200, [completed]);
        if (url.startsWith('/api/v1/blogs/')) return json(200, blogs);
        if (url.startsWith('/api/v1/doctors/me/earnings')) return json(200, { currency: 'INR', months: [{ month: '2030-02', rupees: 0, consultations: 0 }, { month: '2030-03', rupees: 1500, consultations: 1 }], today: { rupees: 1500, consultations: 1 } });
        return json(200, []);
      }),
    );
    renderAt('/doctor-home', <I18nProvider language="hi"><DoctorHome /></I18nProvider>);
    expect(await screen.findByRole('heading', { name: 'डॉक्टर डैशबोर्ड' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'मासिक कमाई' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('revenue-total').textContent).toBe('पिछले 2 महीनों में ₹1,500'));
    expect(screen.getByTestId('revenue-today').textContent).toBe('आज की कमाई: ₹1,500');
    const request = await screen.findByTestId('pending-request');
    expect(request.textContent).toMatch(/15 मार्च/);
    expect(request.textContent).toContain('मंज़ूर करें');
  });
});
