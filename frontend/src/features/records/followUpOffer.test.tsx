import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { NotesModal } from './NotesModal';
import { followUpOfferBody, followUpOfferProblems } from './followUpOffer';
import { FollowUpOf } from '../doctor/FollowUpOf';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the follow-up a doctor offers with final notes (issue 35)', () => {
  it('whole days from 1 to 90 and a whole fee of 0 or more', () => {
    expect(followUpOfferProblems({ days: '7', fee: '0' })).toEqual({ days: null, fee: null });
    for (const days of ['0', '91', '1.5', '', 'x']) expect(followUpOfferProblems({ days, fee: '0' }).days).toBe('records.followUpDaysInvalid');
    for (const fee of ['-1', '12.5', '', 'free']) expect(followUpOfferProblems({ days: '7', fee }).fee).toBe('records.followUpFeeInvalid');
    expect(followUpOfferBody({ days: ' 14 ', fee: '200' })).toEqual({ follow_up_within_days: 14, follow_up_fee: 200 });
    expect(followUpOfferBody({ days: '0', fee: '200' })).toBeNull();
  });

  it('the fields appear once a follow-up is required, say what is wrong, and go with Save Notes', async () => {
    const saves: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      if (init.method !== 'PUT') return json(200, null);
      saves.push(JSON.parse(String(init.body)));
      return json(200, { appointment_id: 'a1', is_draft: false, saved_at: '2026-01-01T00:00:00Z' });
    });
    const onSaved = vi.fn();
    renderAt('/', <NotesModal open onClose={() => {}} onSaved={onSaved} appointmentId="a1" patientName="Ravi Kumar" />);
    fireEvent.change(screen.getByLabelText('Chief complaint'), { target: { value: 'Fever' } });
    expect(screen.queryByTestId('follow-up-offer')).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Follow-up required/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Routine' }));
    const days = screen.getByLabelText('Follow-up within') as HTMLInputElement;
    const fee = screen.getByLabelText('Follow-up fee') as HTMLInputElement;
    expect([days.value, fee.value]).toEqual(['7', '0']);
    const save = screen.getByRole('button', { name: 'Save Notes' });

    fireEvent.change(days, { target: { value: '120' } });
    expect(screen.getByText('Enter whole days from 1 to 90')).toBeTruthy();
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(days, { target: { value: '14' } });
    fireEvent.change(fee, { target: { value: 'free' } });
    expect(screen.getByText('Enter a whole amount in rupees (0 for free)')).toBeTruthy();
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(fee, { target: { value: '200' } });
    expect(save.hasAttribute('disabled')).toBe(false);

    fireEvent.click(save);
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(false));
    expect(saves.at(-1)).toMatchObject({ follow_up_required: 'routine', follow_up_within_days: 14, follow_up_fee: 200, is_draft: false });
  });

  it("a doctor's follow-up request names the earlier consultation and opens its notes", async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      expect(url).toBe('/api/v1/consultations/earlier-1/notes');
      return json(200, {
        appointment_id: 'earlier-1',
        patient_id: 'p1',
        doctor_id: 'd1',
        patient_name: 'Ravi Kumar',
        patient_ref: null,
        chief_complaint: 'Fever for 3 days',
        clinical_assessment: 'Viral fever',
        treatment_plan: null,
        follow_up_instructions: 'Review in a week',
        additional_notes: null,
        priority_level: 'medium',
        follow_up_required: 'routine',
        template: null,
        is_draft: false,
        saved_at: '2026-12-01T05:00:00Z',
      });
    });
    renderAt('/', <FollowUpOf earlier={{ appointment_id: 'earlier-1', start_at: '2026-12-01T04:30:00Z' }} />);
    expect(screen.getByTestId('follow-up-of').textContent).toMatch(/^Follow-up of the consultation on .*2026/);
    fireEvent.click(screen.getByRole('button', { name: 'View its notes' }));
    const dialog = await screen.findByRole('dialog', { name: /^Consultation of / });
    expect(await screen.findByText('Fever for 3 days')).toBeTruthy();
    expect(dialog.textContent).toContain('Review in a week');
    expect(dialog.textContent).not.toContain('Treatment plan');
  });
});
