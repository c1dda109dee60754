import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link } from 'react-router';
import { useFakeClock, waitOnClock } from '../../test/clock';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { AUTOSAVE_TEXTS } from '../../lib/autosave';
import { UNSAVED_CHANGES_QUESTION } from '../../lib/unsavedChanges';
import { NotesModal } from './NotesModal';
import { NotesPanel } from './CallRecordsPanel';
import { UploadReportsModal } from './UploadReportsModal';
import { PrescriptionBuilder } from './PrescriptionBuilder';

/** The notes API: what was saved so far (null: none), and each save's body as sent. */
function notesServer(saved: Record<string, unknown> | null = null) {
  const puts: Array<Record<string, unknown>> = [];
  let fail = false;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    if (url === '/api/v1/consultations/a1/notes' && init.method === 'PUT') {
      if (fail) return json(503, { detail: 'Unavailable' });
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      puts.push(body);
      return json(200, { appointment_id: 'a1', is_draft: body.is_draft !== false, saved_at: '2030-01-01T00:00:00Z' });
    }
    if (url === '/api/v1/consultations/a1/notes') return json(200, saved);
    if (url === '/api/v1/users/me/consents') return json(200, { consents: [], has_current_consent: true });
    return json(200, []);
  });
  return { puts, failSaves: () => (fail = true) };
}

const status = () => screen.getByTestId('autosave-status').textContent;
const asked = () => screen.queryByText(UNSAVED_CHANGES_QUESTION.title);

beforeEach(() => sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStore.clear();
});

/** The fake clock, to skip the notes' 2 s autosave debounce; user-event moves it on when it waits between steps. */
function fakeClock() {
  useFakeClock();
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

/** A page with a modal opened by a button (closed by its own Cancel), and a link to another page. */
function Page({ modal }: { modal: (close: () => void) => React.ReactNode }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <Link to="/elsewhere">Another page</Link>
      {open ? modal(() => setOpen(false)) : <p>modal closed</p>}
    </>
  );
}

describe('consultation notes save themselves as a draft as the doctor writes', () => {
  it('the notes modal saves a draft (only what was edited, is_draft true) a moment after typing, saying Saving… then Saved; closing then asks nothing', async () => {
    const user = fakeClock();
    const { puts } = notesServer({ appointment_id: 'a1', patient_id: 'p1', doctor_id: 'd1', patient_name: 'Ravi Kumar', patient_ref: null, chief_complaint: 'Fever', clinical_assessment: 'From the call', treatment_plan: null, follow_up_instructions: null, additional_notes: null, priority_level: 'medium', follow_up_required: 'no', template: null, is_draft: true, saved_at: '2030-01-01T00:00:00Z' });
    renderAt('/', <Page modal={(close) => <NotesModal open onClose={close} appointmentId="a1" patientName="Ravi Kumar" />} />);
    const complaint = screen.getByLabelText('Chief complaint') as HTMLTextAreaElement;
    await waitFor(() => expect(complaint.value).toBe('Fever'));
    expect(status()).toBe('');
    fireEvent.change(complaint, { target: { value: 'Fever for three days' } });
    expect(status()).toBe(AUTOSAVE_TEXTS.saving);
    await waitOnClock(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    expect(puts).toEqual([{ chief_complaint: 'Fever for three days', is_draft: true }]);
    // Saved: leaving the page asks nothing (the link is behind the modal: as Back would, it moves to another page).
    await user.click(screen.getByRole('link', { name: 'Another page', hidden: true }));
    await screen.findByText('elsewhere');
    expect(asked()).toBeNull();
  });

  it("the modal's Cancel right after typing saves what is left as a draft and closes without asking", async () => {
    const { puts } = notesServer();
    renderAt('/', <Page modal={(close) => <NotesModal open onClose={close} appointmentId="a1" patientName="Ravi Kumar" />} />);
    fireEvent.change(screen.getByLabelText('Treatment plan'), { target: { value: 'Rest and fluids' } });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('modal closed');
    expect(asked()).toBeNull();
    expect(puts).toEqual([{ patient_name: 'Ravi Kumar', treatment_plan: 'Rest and fluids', is_draft: true }]);
  });

  it('unsaved notes (the draft could not be saved) ask before another page: Keep editing keeps the text, Discard goes', async () => {
    const user = fakeClock();
    const { failSaves } = notesServer();
    failSaves();
    renderAt('/', <Page modal={(close) => <NotesModal open onClose={close} appointmentId="a1" patientName="Ravi Kumar" />} />);
    const complaint = screen.getByLabelText('Chief complaint') as HTMLTextAreaElement;
    fireEvent.change(complaint, { target: { value: 'Headache' } });
    await waitOnClock(() => expect(status()).toBe(AUTOSAVE_TEXTS.failed));
    await user.click(screen.getByRole('link', { name: 'Another page', hidden: true }));
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect(complaint.value).toBe('Headache');
    // Its own Cancel asks too, once saving what is left has failed.
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    await screen.findByText('modal closed');
  });

  it('the in-call notes save themselves as a draft; Save Notes then saves them final (none were saved before), and what is left is saved when the call page goes', async () => {
    const user = fakeClock();
    const { puts } = notesServer();
    const { unmount } = renderAt('/', <NotesPanel appointmentId="a1" />);
    const text = screen.getByLabelText('Consultation notes');
    fireEvent.change(text, { target: { value: 'Throat red' } });
    await waitOnClock(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    expect(puts).toEqual([{ clinical_assessment: 'Throat red', is_draft: true }]);
    await user.click(screen.getByRole('button', { name: 'Save Notes' }));
    await screen.findByTestId('notes-saved');
    expect(puts[1]).toEqual({ clinical_assessment: 'Throat red', is_draft: false });
    fireEvent.change(text, { target: { value: 'Throat red, no fever' } });
    unmount();
    await waitFor(() => expect(puts).toHaveLength(3));
    expect(puts[2]).toEqual({ clinical_assessment: 'Throat red, no fever', is_draft: true });
  });
});

describe('other screens ask before unsaved input is thrown away', () => {
  it('the reports upload with a chosen file asks on Cancel: Keep editing keeps the file, Discard closes', async () => {
    notesServer();
    renderAt('/', <Page modal={(close) => <UploadReportsModal open onClose={close} />} />);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File([new Uint8Array(10)], 'blood-test.pdf', { type: 'application/pdf' }));
    await screen.findByText(/1 file/);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect(screen.getByText(/1 file/)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await screen.findByText('modal closed');
  });

  it('an untouched upload modal closes at once', async () => {
    notesServer();
    renderAt('/', <Page modal={(close) => <UploadReportsModal open onClose={close} />} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText('modal closed');
    expect(asked()).toBeNull();
  });

  it('the prescription builder with nothing written lets another page open at once', async () => {
    notesServer();
    renderAt('/', <Page modal={() => <PrescriptionBuilder appointmentId="a1" />} />);
    await userEvent.click(screen.getByRole('link', { name: 'Another page' }));
    await screen.findByText('elsewhere');
  });

  it('the prescription builder with a dosage typed asks before another page, and Keep editing keeps it', async () => {
    notesServer();
    renderAt('/', <Page modal={() => <PrescriptionBuilder appointmentId="a1" />} />);
    fireEvent.change(screen.getByLabelText(/Dosage/), { target: { value: '1 tablet' } });
    await userEvent.click(screen.getByRole('link', { name: 'Another page' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(asked()).toBeNull());
    expect((screen.getByLabelText(/Dosage/) as HTMLInputElement).value).toBe('1 tablet');
  });
});
