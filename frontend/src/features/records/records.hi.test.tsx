import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { intlLocale } from '@telemed/contracts/languages';
import { json, renderAt } from '../../test/render';
import { I18nProvider } from '../../i18n/I18nProvider';
import { RecordsTiles } from './RecordsTiles';
import { VerifyPage } from './VerifyPage';

const hindi = (options: Intl.DateTimeFormatOptions, date: string) => new Intl.DateTimeFormat(intlLocale('hi'), { ...options, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.documentElement.lang = 'en'; // the provider set it
});

describe('records in Hindi', () => {
  it("the patient's records tiles: the tiles' headings and buttons, the report's type and date in Hindi, its file count", async () => {
    vi.stubGlobal('fetch', async () =>
      json(200, {
        patient_id: 'u',
        reports: [
          {
            kind: 'report', id: 'r1', patient_id: 'u', appointment_id: null, report_type: 'xray', report_type_name: 'X-Ray', report_date: '2026-11-20',
            medical_facility: null, doctor_name: null, report_summary: null, additional_notes: null, total_size: 3, uploaded_at: '2026-11-20T10:00:00Z',
            files: [{ file_id: 'f1', file_name: 'chest.png', content_type: 'image/png', size: 3, download_url: '/api/v1/records/files/f1' }],
          },
        ],
        prescriptions: [],
        prescription_files: [],
      }),
    );
    renderAt('/', <I18nProvider language="hi"><RecordsTiles wrap={(tile, key) => <div key={key}>{tile}</div>} /></I18nProvider>);
    const tile = await screen.findByTestId('reports-tile');
    expect(await within(tile).findByText('मेडिकल रिपोर्ट')).toBeTruthy();
    expect(within(tile).getByText('आपकी अपलोड की हुई रिपोर्ट, सबसे नई पहले।')).toBeTruthy();
    expect(within(tile).getByRole('button', { name: 'रिपोर्ट अपलोड करें' })).toBeTruthy();
    expect(within(screen.getByTestId('prescriptions-tile')).getByText('अभी कोई पर्चा नहीं है।')).toBeTruthy();
    fireEvent.click(within(tile).getByRole('button', { name: 'मेडिकल रिपोर्ट देखें' }));
    const dialog = await screen.findByRole('dialog', { name: 'मेडिकल रिपोर्ट' });
    const date = hindi({ day: 'numeric', month: 'short', year: 'numeric' }, '2026-11-20');
    expect(date).toMatch(/^20 \S+ 2026$/); // Western digits, the month in Hindi
    expect(date).not.toContain('Nov');
    expect(within(dialog).getByText(`एक्स-रे · ${date}`)).toBeTruthy();
    expect(within(dialog).getByText('1 फ़ाइल')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'chest.png डाउनलोड करें' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'बंद करें' })).toBeTruthy();
  });

  it('the verification page: its heading, the verdict and the date of issue in Hindi', async () => {
    vi.stubGlobal('fetch', async () => json(200, { genuine: true, doctor: { name: 'Dr. Ananya Sharma', qualification: 'MBBS', registration_number: 'WB-1', medical_council: 'West Bengal Medical Council' }, issued_on: '2026-11-27' }));
    renderAt('/verify/abc', <I18nProvider language="hi"><VerifyPage /></I18nProvider>);
    expect(await screen.findByRole('heading', { name: 'पर्चे की जाँच' })).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toBe('असली पर्चा');
    const date = hindi({ day: 'numeric', month: 'long', year: 'numeric' }, '2026-11-27');
    expect(date).toBe('27 नवंबर 2026');
    expect(screen.getByText(date)).toBeTruthy();
    expect(screen.getByText('जारी होने की तारीख़')).toBeTruthy();
  });
});
