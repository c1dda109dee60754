import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { RECORD_TEXTS } from '@telemed/contracts/record-constants';
import { elapse, useFakeClock } from '../../test/clock';
import { json, renderAt } from '../../test/render';
import { UploadReportsModal } from './UploadReportsModal';
import { NotesModal } from './NotesModal';
import { PrescriptionBuilder } from './PrescriptionBuilder';
import { PatientHistory } from './CallRecordsPanel';
import { MEDICINE_SEARCH, addFiles, applyTemplate, canAddLine, canSaveDraft, canSaveNotes, emptyLine, emptyNotes, reportTypeFromName, shownProgress, toSessionLine } from './rules';

const file = (name: string, size = 10, type = 'application/pdf') => new File([new Uint8Array(size)], name, { type });

/** A stand-in for XMLHttpRequest: the test drives upload progress and the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return null;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeXhr.last = null;
});

describe('the forms’ rules (seed 001 §4, §5)', () => {
  it('ignores a file with the same name and size as one already chosen, and refuses oversized and unsupported ones with the seeds’ texts', () => {
    const a = file('blood.pdf', 10);
    const { files, errors } = addFiles([a], [file('blood.pdf', 10), file('blood.pdf', 11), file('scan.exe', 5, 'application/x-msdownload'), file('big.pdf', 20 * 1024 * 1024 + 1)]);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['blood.pdf', 10],
      ['blood.pdf', 11],
    ]);
    expect(errors).toEqual([RECORD_TEXTS.reportFileType('scan.exe'), RECORD_TEXTS.reportFileTooLarge('big.pdf')]);
    expect(addFiles([], [file('head.dcm', 5, '')]).files).toHaveLength(1);
  });

  it('pre-selects the report type from a file name', () => {
    expect(reportTypeFromName('chest-xray.png')).toBe('xray');
    expect(reportTypeFromName('Brain MRI.pdf')).toBe('mri_ct');
    expect(reportTypeFromName('abdomen_ct.pdf')).toBe('mri_ct');
    expect(reportTypeFromName('echo-2024.pdf')).toBe('ultrasound');
    expect(reportTypeFromName('EKG.jpg')).toBe('ecg');
    expect(reportTypeFromName('blood test.pdf')).toBe('lab');
    expect(reportTypeFromName('notes.pdf')).toBeNull();
  });

  it('caps the progress at 90 % until the server answers', () => {
    expect(shownProgress(50, 100, false)).toBe(50);
    expect(shownProgress(100, 100, false)).toBe(90);
    expect(shownProgress(100, 100, true)).toBe(100);
  });

  it('fills only empty fields from a template; Urgent Care sets urgent priority and follow-up, Follow-up Visit a routine follow-up', () => {
    const mine = { ...emptyNotes('Ravi'), chief_complaint: 'Fever for 3 days' };
    const urgent = applyTemplate(mine, 'urgent_care');
    expect(urgent.chief_complaint).toBe('Fever for 3 days');
    expect(urgent.clinical_assessment).not.toBe('');
    expect([urgent.priority_level, urgent.follow_up_required]).toEqual(['urgent', 'urgent']);
    const followUp = applyTemplate(emptyNotes(), 'follow_up_visit');
    expect([followUp.priority_level, followUp.follow_up_required]).toEqual(['medium', 'routine']);
  });

  it('Save as Draft needs any text; Save Notes needs a patient name and a complaint or an assessment', () => {
    expect(canSaveDraft(emptyNotes())).toBe(false);
    expect(canSaveDraft({ ...emptyNotes(), additional_notes: 'x' })).toBe(true);
    expect(canSaveNotes({ ...emptyNotes('Ravi') })).toBe(false);
    expect(canSaveNotes({ ...emptyNotes('Ravi'), clinical_assessment: 'Viral fever' })).toBe(true);
    expect(canSaveNotes({ ...emptyNotes(' '), chief_complaint: 'Fever' })).toBe(false);
  });

  it('Add needs a medicine, a dosage and a duration of at least 1; the custom schedule is kept only for a custom frequency', () => {
    expect(canAddLine(emptyLine())).toBe(false);
    expect(canAddLine({ ...emptyLine(), medicine: 'Paracetamol', dosage: ' ' })).toBe(false);
    expect(canAddLine({ ...emptyLine(), medicine: 'Paracetamol', dosage: '500 mg', duration_value: 0 })).toBe(false);
    expect(canAddLine({ ...emptyLine(), medicine: 'Paracetamol', dosage: '500 mg' })).toBe(true);
    expect(toSessionLine({ ...emptyLine(), medicine: 'A', dosage: 'B', custom_schedule: 'every 6 h' }).custom_schedule).toBeNull();
    expect(toSessionLine({ ...emptyLine(), medicine: 'A', dosage: 'B', frequency: 'custom', custom_schedule: 'every 6 h' }).custom_schedule).toBe('every 6 h');
  });
});

describe('Upload Reports modal', () => {
  beforeEach(() => vi.stubGlobal('XMLHttpRequest', FakeXhr));

  const choose = (...files: File[]) => fireEvent.change(screen.getByLabelText('Report files'), { target: { files } });

  it('ignores duplicates, pre-selects the type from a single file, caps progress at 90 %, disables closing while uploading, and shows the server’s message inline', async () => {
    renderAt('/', <UploadReportsModal open onClose={() => {}} appointmentId="a1" />);
    choose(file('chest-xray.png', 100, 'image/png'));
    expect(screen.getByRole('combobox', { name: /Report type/ }).textContent).toBe('X-Ray');
    choose(file('chest-xray.png', 100, 'image/png'), file('blood.pdf', 50));
    const list = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Upload Reports' }));
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe('/api/v1/records/reports');
    expect(xhr.body!.getAll('files')).toHaveLength(2);
    expect(xhr.body!.get('report_type')).toBe('xray');
    expect(xhr.body!.get('appointment_id')).toBe('a1');
    act(() => xhr.upload.onprogress!({ lengthComputable: true, loaded: 150, total: 150 }));
    expect(screen.getByTestId('upload-progress').textContent).toBe('Uploading... 90%');
    expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Close' }).hasAttribute('disabled')).toBe(true);

    act(() => xhr.answer(413, { detail: RECORD_TEXTS.reportFileTooLarge('blood.pdf') }));
    expect((await screen.findByRole('alert')).textContent).toBe(RECORD_TEXTS.reportFileTooLarge('blood.pdf'));
    expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Upload Reports' }));
    act(() => FakeXhr.last!.answer(500, {}));
    expect((await screen.findByRole('alert')).textContent).toBe(RECORD_TEXTS.uploadReportsFailed);
  });

  it('without a current consent shows the privacy notice with a box to tick; once ticked, uploading records the agreement (the notice shown), then sends the files', async () => {
    const notice = { version: 'v9', language: 'en', title: 'Privacy notice: booking consultations', text: 'What we collect: the reports you upload.', text_hash: 'h' };
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url.endsWith('/users/me/consents') && init?.method === 'POST') return json(201, { notice_version: 'v9', status: 'active' });
        if (url.endsWith('/users/me/consents')) return json(200, { current_notice_version: 'v9', has_current_consent: false, consents: [] });
        if (url.includes('/consents/notice')) return json(200, notice);
        return json(404, { detail: 'Not found' });
      }),
    );
    renderAt('/', <UploadReportsModal open onClose={() => {}} />);
    expect(await screen.findByText('What we collect: the reports you upload.')).toBeTruthy();
    expect(screen.getByTestId('consent-notice').textContent).toContain('Before you upload reports, please read how we use your data (version v9), and tick the box if you agree; then upload them.');
    choose(file('chest-xray.png', 100, 'image/png')); // the type is pre-selected from the name
    const upload = await screen.findByRole('button', { name: 'Upload Reports' });
    await vi.waitFor(() => expect(upload.hasAttribute('disabled')).toBe(false));
    fireEvent.click(upload);
    expect((await within(screen.getByTestId('consent-notice')).findByRole('alert')).textContent).toBe('Please tick the box to agree to the privacy notice first.');
    expect(calls).not.toContain('POST /api/v1/users/me/consents');
    expect(FakeXhr.last).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have read the privacy notice and I agree to it' }));
    fireEvent.click(upload);
    await vi.waitFor(() => expect(FakeXhr.last).not.toBeNull());
    expect(calls).toContain('POST /api/v1/users/me/consents');
    expect(FakeXhr.last!.url).toBe('/api/v1/records/reports');
  });

  it('a refusal of the upload goes once the files it was about change (a file removed)', async () => {
    renderAt('/', <UploadReportsModal open onClose={() => {}} />);
    choose(file('scan.pdf', 100), file('blood.pdf', 50));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Report type/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Lab Results' }));
    fireEvent.click(screen.getByRole('button', { name: 'Upload Reports' }));
    act(() => FakeXhr.last!.answer(415, { detail: RECORD_TEXTS.reportFileType('scan.pdf') }));
    expect((await screen.findByRole('alert')).textContent).toBe(RECORD_TEXTS.reportFileType('scan.pdf'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove scan.pdf' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Chosen files' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('does not pre-select a type from several files', () => {
    renderAt('/', <UploadReportsModal open onClose={() => {}} />);
    choose(file('chest-xray.png', 100, 'image/png'), file('ecg.pdf', 50));
    expect(screen.getByRole('combobox', { name: /Report type/ }).textContent).not.toBe('X-Ray');
    expect(screen.getByRole('button', { name: 'Upload Reports' }).hasAttribute('disabled')).toBe(true);
  });
  it('the report date holds the server\'s rule: not before 1900, not after today in India, a real date; the date field says its bounds', () => {
    renderAt('/', <UploadReportsModal open onClose={() => {}} />);
    choose(file('chest-xray.png', 100, 'image/png'));
    const date = screen.getByLabelText('Report date');
    const upload = screen.getByRole('button', { name: 'Upload Reports' });
    expect(date.getAttribute('min')).toBe('1900-01-01');
    expect(upload.hasAttribute('disabled')).toBe(false);
    for (const [value, message] of [
      ['1899-12-31', RECORD_TEXTS.reportDateTooEarly],
      ['0202-03-04', RECORD_TEXTS.reportDateTooEarly],
      ['2999-01-01', RECORD_TEXTS.reportDateFuture],
      ['', RECORD_TEXTS.reportDateRequired],
    ] as const) {
      fireEvent.change(date, { target: { value } });
      expect(screen.getByText(message)).toBeTruthy();
      expect(upload.hasAttribute('disabled')).toBe(true);
    }
    fireEvent.change(date, { target: { value: '1900-01-01' } });
    expect(upload.hasAttribute('disabled')).toBe(false);
  });
});

describe('Consultation notes modal', () => {
  it('a template fills only empty fields; Save Notes sends the fields with is_draft false', async () => {
    const calls: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      // No notes saved yet: the server answers 200 with null (not an error).
      if (init.method !== 'PUT') return json(200, null);
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return json(200, { appointment_id: 'a1', is_draft: false, saved_at: '2026-01-01T00:00:00Z' });
    });
    const onSaved = vi.fn();
    renderAt('/', <NotesModal open onClose={() => {}} onSaved={onSaved} appointmentId="a1" patientName="Ravi Kumar" />);
    const save = screen.getByRole('button', { name: 'Save Notes' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Chief complaint'), { target: { value: 'Fever for 3 days' } });
    expect(save.hasAttribute('disabled')).toBe(false);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Template/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Urgent Care' }));
    expect((screen.getByLabelText('Chief complaint') as HTMLTextAreaElement).value).toBe('Fever for 3 days');
    expect((screen.getByLabelText('Treatment plan') as HTMLTextAreaElement).value).not.toBe('');
    expect(screen.getByRole('combobox', { name: /Priority level/ }).textContent).toBe('Urgent');
    fireEvent.click(save);
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(false));
    expect(calls[0]!.url).toBe('/api/v1/consultations/a1/notes');
    expect(calls[0]!.body).toMatchObject({ patient_name: 'Ravi Kumar', chief_complaint: 'Fever for 3 days', priority_level: 'urgent', follow_up_required: 'urgent', template: 'urgent_care', is_draft: false });
  });
});

describe('quick prescription builder', () => {
  const suggestions = [
    { id: 'nlem-1', name: 'Paracetamol', manufacturer: null, strength: '500 mg, 650 mg', strengths: ['500 mg', '650 mg'], dosage_form: 'Tablet', tpg_list: 'O' },
    { id: 'nlem-2', name: 'Pantoprazole', manufacturer: null, strength: '40 mg', strengths: ['40 mg'], dosage_form: 'Tablet', tpg_list: 'A' },
  ];

  it('searches from 2 characters 300 ms after the last key; ArrowDown/ArrowUp/Enter pick, Escape closes, blur closes after 150 ms', async () => {
    vi.useFakeTimers();
    const searches: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      searches.push(url);
      return json(200, suggestions);
    });
    renderAt('/', <PrescriptionBuilder appointmentId="a1" />);
    const input = screen.getByRole('combobox', { name: /Medicine/ });
    fireEvent.change(input, { target: { value: 'p' } });
    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(searches).toEqual([]);
    fireEvent.change(input, { target: { value: 'pa' } });
    await act(async () => vi.advanceTimersByTimeAsync(200));
    fireEvent.change(input, { target: { value: 'par' } });
    await act(async () => vi.advanceTimersByTimeAsync(299));
    expect(searches).toEqual([]);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(searches).toEqual(['/api/v1/medicines/search?q=par&limit=10']);
    expect(screen.getAllByRole('option')).toHaveLength(2);

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();

    fireEvent.change(input, { target: { value: 'pan' } });
    await act(async () => vi.advanceTimersByTimeAsync(300));
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(screen.getByRole('option', { selected: true }).textContent).toContain('Pantoprazole');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((input as HTMLInputElement).value).toBe('Pantoprazole');
    expect(screen.queryByRole('listbox')).toBeNull();

    fireEvent.change(input, { target: { value: 'para' } });
    await act(async () => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.blur(input);
    await act(async () => vi.advanceTimersByTimeAsync(149));
    expect(screen.getByRole('listbox')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('Add follows the rules, resets the form to once daily for 1 day, and Issue Prescription shows the server’s refusal inline', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('/prescriptions')) {
        sent.push(JSON.parse(String(init?.body)));
        return json(403, { detail: RECORD_TEXTS.listBNeedsFollowUp('Pregabalin') });
      }
      return json(200, []);
    });
    renderAt('/', <PrescriptionBuilder appointmentId="a1" />);
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: /Medicine/ }), { target: { value: 'Pregabalin' } });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText(/Dosage/), { target: { value: '75 mg' } });
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '0' } });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '2' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Frequency/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('Custom schedule'), { target: { value: 'at bedtime' } });
    fireEvent.click(add);
    expect(within(screen.getByTestId('session-lines')).getAllByRole('listitem')).toHaveLength(1);
    expect((screen.getByRole('combobox', { name: /Medicine/ }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('combobox', { name: /Frequency/ }).textContent).toBe('Once daily');
    expect((screen.getByLabelText('Duration') as HTMLInputElement).value).toBe('1');
    expect(screen.queryByLabelText('Custom schedule')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Issue Prescription' }));
    expect((await screen.findByRole('alert')).textContent).toBe(RECORD_TEXTS.listBNeedsFollowUp('Pregabalin'));
    expect(sent[0]).toMatchObject({ lines: [{ medicine: 'Pregabalin', dosage: '75 mg', frequency: 'custom', custom_schedule: 'at bedtime', duration_value: 2, duration_unit: 'days', medicine_id: null }] });
  });
});

describe('a brand in the builder', () => {
  it('a brand suggestion shows its generic; the line reads as the e-prescription will (generic in capitals, brand after it) and is sent as picked', async () => {
    const sent: Array<{ lines: Array<Record<string, unknown>> }> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('/prescriptions')) {
        sent.push(JSON.parse(String(init?.body)) as { lines: Array<Record<string, unknown>> });
        return json(201, { prescription_id: 'p1', verification_code: 'v1' });
      }
      return json(200, [
        { id: 'brand-in-dolo-650', name: 'Dolo 650', generic_name: 'Paracetamol', manufacturer: 'Micro Labs', strength: '650 mg', strengths: ['650 mg'], dosage_form: 'Tablet', tpg_list: 'O' },
        { id: 'nlem-1', name: 'Paracetamol', generic_name: 'Paracetamol', manufacturer: null, strength: '500 mg, 650 mg', strengths: ['500 mg', '650 mg'], dosage_form: 'Tablet', tpg_list: 'O' },
      ]);
    });
    useFakeClock();
    renderAt('/', <PrescriptionBuilder appointmentId="a1" />);
    fireEvent.change(screen.getByRole('combobox', { name: /Medicine/ }), { target: { value: 'dolo' } });
    await elapse(MEDICINE_SEARCH.debounceMs);
    const option = await screen.findByRole('option', { name: /Dolo 650/ }, { timeout: 15_000 });
    expect(within(option).getByTestId('suggestion-generic').textContent).toBe('PARACETAMOL');
    expect(within(screen.getByRole('option', { name: /^Paracetamol/ })).queryByTestId('suggestion-generic')).toBeNull();
    fireEvent.click(option);
    fireEvent.change(screen.getByLabelText(/Dosage/), { target: { value: '1 tablet' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(within(screen.getByTestId('session-lines')).getByText(/PARACETAMOL 650 mg tablet \(Dolo 650\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Issue Prescription' }));
    await screen.findByText('Prescription issued and shared with the patient.');
    expect(sent[0]!.lines[0]).toMatchObject({ medicine_id: 'brand-in-dolo-650', medicine: 'Dolo 650', strength: '650 mg', dosage_form: 'Tablet' });
    expect(Object.keys(sent[0]!.lines[0]!)).not.toContain('generic_name');
  });
});

describe('strength and the patient’s particulars in the builder', () => {
  it('a picked medicine is prescribed in a strength it lists (chosen before Add), sent with its form, the age and the gender', async () => {
    const sent: Array<Record<string, unknown>> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('/prescriptions')) {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return json(201, { prescription_id: 'p1', verification_code: 'v1' });
      }
      return json(200, [{ id: 'nlem-1', name: 'Paracetamol', manufacturer: null, strength: '500 mg, 650 mg', strengths: ['500 mg', '650 mg'], dosage_form: 'Tablet', tpg_list: 'O' }]);
    });
    useFakeClock();
    renderAt('/', <PrescriptionBuilder appointmentId="a1" />);
    const input = screen.getByRole('combobox', { name: /Medicine/ });
    fireEvent.change(input, { target: { value: 'para' } });
    await elapse(MEDICINE_SEARCH.debounceMs);
    fireEvent.click(await screen.findByRole('option', { name: /Paracetamol/ }, { timeout: 15_000 }));
    fireEvent.change(screen.getByLabelText(/Dosage/), { target: { value: '1 tablet' } });
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add.hasAttribute('disabled')).toBe(true);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Strength/ }));
    const listed = within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(listed).toEqual(['500 mg', '650 mg']);
    fireEvent.click(screen.getByRole('option', { name: '650 mg' }));
    expect(add.hasAttribute('disabled')).toBe(false);
    fireEvent.click(add);
    expect(within(screen.getByTestId('session-lines')).getByText(/PARACETAMOL 650 mg tablet/)).toBeTruthy();
    // Free text: any strength, written.
    fireEvent.change(input, { target: { value: 'Chyawanprash' } });
    fireEvent.change(screen.getByLabelText('Strength (optional)'), { target: { value: '1 teaspoon' } });
    fireEvent.change(screen.getByLabelText(/Dosage/), { target: { value: '1 spoon' } });
    fireEvent.click(add);
    fireEvent.change(screen.getByLabelText('Patient age (years)'), { target: { value: '34' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Patient gender/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Female' }));
    fireEvent.click(screen.getByRole('button', { name: 'Issue Prescription' }));
    await screen.findByText('Prescription issued and shared with the patient.');
    expect(sent[0]).toMatchObject({
      patient_age: 34,
      patient_gender: 'female',
      lines: [
        { medicine_id: 'nlem-1', medicine: 'Paracetamol', strength: '650 mg', dosage_form: 'Tablet', dosage: '1 tablet' },
        { medicine_id: null, medicine: 'Chyawanprash', strength: '1 teaspoon', dosage_form: null, dosage: '1 spoon' },
      ],
    });
    expect(Object.keys((sent[0]!.lines as object[])[0]!)).not.toContain('strengths');
  });
});

describe('the patient’s records in the call', () => {
  it('shows 2 recent reports and prescriptions, all when expanded', () => {
    const report = (i: number) => ({
      kind: 'report' as const,
      id: `r${i}`,
      patient_id: 'p',
      appointment_id: null,
      report_type: 'lab' as const,
      report_type_name: `Lab Results ${i}`,
      report_date: '2026-01-0' + i,
      medical_facility: null,
      doctor_name: null,
      report_summary: null,
      additional_notes: null,
      files: [],
      total_size: 1,
      uploaded_at: '2026-01-01T00:00:00Z',
    });
    const prescription = (i: number) => ({
      kind: 'prescription' as const,
      id: `p${i}`,
      patient_id: 'p',
      doctor_id: 'd',
      doctor_name: 'Dr. A',
      appointment_id: 'a',
      diagnosis: null,
      medicines: [{ medicine: `Medicine ${i}`, dosage: '1', frequency: 'once_daily' }],
      issued_at: '2026-01-01T00:00:00Z',
      pdf_url: `/api/v1/prescriptions/p${i}/pdf`,
    });
    renderAt('/', <PatientHistory records={{ patient_id: 'p', reports: [1, 2, 3, 4].map(report), prescriptions: [1, 2, 3].map(prescription), prescription_files: [] }} />);
    expect(within(screen.getByTestId('patient-reports')).getAllByRole('listitem')).toHaveLength(2);
    expect(within(screen.getByTestId('previous-prescriptions')).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(within(screen.getByTestId('patient-reports')).getAllByRole('listitem')).toHaveLength(4);
    expect(within(screen.getByTestId('previous-prescriptions')).getAllByRole('listitem')).toHaveLength(3);
  });
});

describe('/home records tiles', () => {
  it('with no reports yet, the tile says reports can be uploaded at any time, beside its Upload Reports button', async () => {
    vi.stubGlobal('fetch', async () => json(200, { patient_id: 'u', reports: [], prescriptions: [], prescription_files: [] }));
    const { RecordsTiles } = await import('./RecordsTiles');
    renderAt('/', <RecordsTiles wrap={(tile, key) => <div key={key}>{tile}</div>} />);
    const tile = await screen.findByTestId('reports-tile');
    await within(tile).findByText('0');
    expect(within(tile).getByText('No reports yet. You can upload your reports at any time, before or after a consultation.')).toBeTruthy();
    expect(tile.textContent).not.toContain('You can upload reports after a consultation');
    const upload = within(tile).getByRole('button', { name: 'Upload Reports' });
    expect(upload.hasAttribute('disabled')).toBe(false);
    fireEvent.click(upload);
    expect(await screen.findByRole('dialog', { name: 'Upload Medical Reports' })).toBeTruthy();
  });

  it('open their modals with the real rows, and Download fetches the file with the bearer token and saves it', async () => {
    sessionStorage.setItem('auth_token', 'tok-1');
    sessionStorage.setItem('user_info', JSON.stringify({ id: 'u', user_id: 'u', name: 'Ravi', email: null, account_type: 'patient' }));
    const requests: Array<{ url: string; auth: string | undefined }> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      requests.push({ url, auth: (init?.headers as Record<string, string> | undefined)?.Authorization });
      if (url === '/api/v1/records/me')
        return json(200, {
          patient_id: 'u',
          reports: [
            {
              kind: 'report', id: 'r1', patient_id: 'u', appointment_id: null, report_type: 'xray', report_type_name: 'X-Ray', report_date: '2026-11-20',
              medical_facility: 'City Lab', doctor_name: null, report_summary: null, additional_notes: null, total_size: 3, uploaded_at: '2026-11-20T10:00:00Z',
              files: [{ file_id: 'f1', file_name: 'chest.png', content_type: 'image/png', size: 3, download_url: '/api/v1/records/files/f1' }],
            },
          ],
          prescriptions: [
            { kind: 'prescription', id: 'p1', patient_id: 'u', doctor_id: 'd', doctor_name: 'Dr. Anita', appointment_id: 'a', diagnosis: null, medicines: [{ medicine: 'Paracetamol', dosage: '500 mg', frequency: 'twice_daily' }], issued_at: '2026-11-21T10:00:00Z', pdf_url: '/api/v1/prescriptions/p1/pdf' },
          ],
          prescription_files: [],
        });
      const headers: Record<string, string> = url.endsWith('/pdf') ? { 'Content-Disposition': 'attachment; filename="prescription.pdf"' } : {};
      return new Response(new Blob(['%PDF']), { status: 200, headers });
    });
    const createObjectURL = vi.fn(() => 'blob:x');
    const saved: string[] = [];
    // jsdom does not navigate; the download's name is what matters.
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { RecordsTiles } = await import('./RecordsTiles');
    renderAt('/', <RecordsTiles wrap={(tile, key) => <div key={key}>{tile}</div>} />);
    expect((await screen.findByTestId('reports-tile-count')).textContent).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'View Medical Reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Medical Reports' });
    expect(within(dialog).getByText(/X-Ray/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download chest.png' }));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(requests.at(-1)).toEqual({ url: '/api/v1/records/files/f1', auth: 'Bearer tok-1' });
    expect(saved.at(-1)).toBe('chest.png');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Medical Reports' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'View Prescriptions' }));
    const prescriptions = await screen.findByRole('dialog', { name: 'Prescriptions' });
    fireEvent.click(within(prescriptions).getByRole('button', { name: /^Download the prescription .* as PDF$/ }));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(2));
    expect(requests.at(-1)!.url).toBe('/api/v1/prescriptions/p1/pdf');
    expect(saved.at(-1)).toBe('prescription.pdf');
    click.mockRestore();
    sessionStorage.clear();
  });
});

describe('in-call notes and the notes modal’s starting point', () => {
  it("the panel's Save Notes is disabled while blank, saves the text and says 'Notes saved! ✅' for 2 s", async () => {
    vi.useFakeTimers();
    const saved: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/v1/appointments/me')) return json(200, [{ appointment_id: 'a1', patient_id: 'p1', patient_name: 'Ravi Kumar' }]);
      if (url === '/api/v1/consultations/a1/notes' && init?.method === 'PUT') {
        saved.push(JSON.parse(String(init.body)));
        return json(200, { appointment_id: 'a1', is_draft: false, saved_at: 'x' });
      }
      if (url === '/api/v1/patients/p1/records') return json(200, { patient_id: 'p1', reports: [], prescriptions: [], prescription_files: [] });
      return json(200, []);
    });
    const { CallRecordsPanel } = await import('./CallRecordsPanel');
    renderAt('/video-call?appointment_id=a1', <CallRecordsPanel />);
    await act(async () => vi.advanceTimersByTimeAsync(10));
    const save = screen.getByRole('button', { name: 'Save Notes' });
    fireEvent.change(screen.getByLabelText('Consultation notes'), { target: { value: '   ' } });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Consultation notes'), { target: { value: 'Viral fever' } });
    fireEvent.click(save);
    await act(async () => vi.advanceTimersByTimeAsync(10));
    expect(saved[0]).toEqual({ clinical_assessment: 'Viral fever' });
    expect(screen.getByTestId('notes-saved').textContent).toBe('Notes saved! ✅');
    await act(async () => vi.advanceTimersByTimeAsync(1900));
    expect(screen.queryByTestId('notes-saved')).toBeTruthy();
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByTestId('notes-saved')).toBeNull();
  });

  it('the notes modal starts from the saved notes; Save as Draft needs any text and sends is_draft true', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        sent.push(JSON.parse(String(init.body)));
        return json(200, { appointment_id: 'a1', is_draft: true, saved_at: 'x' });
      }
      return json(200, {
        appointment_id: 'a1', patient_id: 'p1', doctor_id: 'd1', patient_name: 'Ravi Kumar', patient_ref: null, chief_complaint: null,
        clinical_assessment: 'Viral fever', treatment_plan: null, follow_up_instructions: null, additional_notes: null,
        priority_level: 'medium', follow_up_required: 'no', template: null, is_draft: false, saved_at: 'x',
      });
    });
    const onSaved = vi.fn();
    renderAt('/', <NotesModal open onClose={() => {}} onSaved={onSaved} appointmentId="a1" patientName="" />);
    await vi.waitFor(() => expect((screen.getByLabelText('Clinical assessment') as HTMLTextAreaElement).value).toBe('Viral fever'));
    fireEvent.change(screen.getByLabelText('Clinical assessment'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText(/Patient name/), { target: { value: '' } });
    expect(screen.getByRole('button', { name: 'Save as Draft' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Treatment plan'), { target: { value: 'Fluids' } });
    expect(screen.getByRole('button', { name: 'Save Notes' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save as Draft' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(true));
    expect(sent[0]).toMatchObject({ treatment_plan: 'Fluids', patient_name: null, is_draft: true });
  });

  it("the panel and the modal send only the fields they edit: the panel's save keeps the name and fields the modal saved, and the modal's later save keeps the panel's text", async () => {
    // A stand-in for the server's notes: each PUT merged into the saved ones key by key (as the API does).
    let stored: Record<string, unknown> | null = null;
    const puts: Array<Record<string, unknown>> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/v1/appointments/me')) return json(200, [{ appointment_id: 'a1', patient_id: 'p1', patient_name: 'Ravi Kumar' }]);
      if (url === '/api/v1/patients/p1/records') return json(200, { patient_id: 'p1', reports: [], prescriptions: [], prescription_files: [] });
      if (url !== '/api/v1/consultations/a1/notes') return json(200, []);
      if (init?.method === 'PUT') {
        const { patient_id: ref, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push({ ...body, ...(ref === undefined ? {} : { patient_id: ref }) });
        stored = { ...(stored ?? { priority_level: 'medium', follow_up_required: 'no', template: null, is_draft: false }), ...body, ...(ref === undefined ? {} : { patient_ref: ref }) };
        return json(200, { appointment_id: 'a1', is_draft: stored.is_draft, saved_at: 'x' });
      }
      return json(200, stored ? { appointment_id: 'a1', patient_id: 'p1', doctor_id: 'd1', saved_at: 'x', ...stored } : null);
    });
    // The modal (after a first call): the doctor writes the name as the clinic knows it, an ID, a complaint and a plan.
    const modal = renderAt('/', <NotesModal open onClose={() => {}} appointmentId="a1" patientName="Ravi Kumar" />);
    await vi.waitFor(() => expect(screen.getByLabelText(/Patient name/)).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/Patient name/), { target: { value: 'Ravi K. Sharma' } });
    fireEvent.change(screen.getByLabelText('Patient ID'), { target: { value: 'OPD-118' } });
    fireEvent.change(screen.getByLabelText('Chief complaint'), { target: { value: 'Fever for 3 days' } });
    fireEvent.change(screen.getByLabelText('Treatment plan'), { target: { value: 'Fluids' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Notes' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    modal.unmount();
    // The follow-up call's panel: it sends its text and nothing else, so the modal's name and fields stay.
    const { CallRecordsPanel } = await import('./CallRecordsPanel');
    const panel = renderAt('/video-call?appointment_id=a1', <CallRecordsPanel />);
    fireEvent.change(await screen.findByLabelText('Consultation notes'), { target: { value: 'No red flags' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Notes' }));
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ clinical_assessment: 'No red flags' });
    expect(stored).toMatchObject({ patient_name: 'Ravi K. Sharma', patient_ref: 'OPD-118', chief_complaint: 'Fever for 3 days', treatment_plan: 'Fluids', clinical_assessment: 'No red flags' });
    panel.unmount();
    // The modal opened again starts from all of it and sends only what is edited there.
    renderAt('/', <NotesModal open onClose={() => {}} appointmentId="a1" patientName="Ravi Kumar" />);
    await vi.waitFor(() => expect((screen.getByLabelText('Clinical assessment') as HTMLTextAreaElement).value).toBe('No red flags'));
    expect((screen.getByLabelText(/Patient name/) as HTMLInputElement).value).toBe('Ravi K. Sharma');
    fireEvent.change(screen.getByLabelText('Additional notes'), { target: { value: 'Lives alone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as Draft' }));
    await vi.waitFor(() => expect(puts).toHaveLength(3));
    expect(puts[2]).toEqual({ additional_notes: 'Lives alone', is_draft: true });
  });

  it('the call view’s panel renders nothing for a patient', async () => {
    sessionStorage.setItem('auth_token', 't');
    sessionStorage.setItem('user_info', JSON.stringify({ id: 'u', user_id: 'u', name: 'Ravi', email: null, account_type: 'patient' }));
    const { DoctorCallPanel } = await import('./DoctorCallPanel');
    const { container } = renderAt('/video-call?appointment_id=a1', <DoctorCallPanel />);
    expect(container.textContent).toBe('');
    sessionStorage.clear();
  });
});
