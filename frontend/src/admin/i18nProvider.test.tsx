import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Admin, Resource, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { json } from '../test/render';
import { I18nProvider } from '../i18n/I18nProvider';
import { useT, type Translate } from '../i18n/useT';
import enAdmin from '../i18n/catalogues/en/admin.json';
import { CATCH_UP_TEXTS } from './catch-up';
import { consoleI18nProvider, polyglotPhrase, useConsoleLanguage } from './i18nProvider';
import { httpClient } from './providers';
import { appointments } from './appointments';

/** react-admin's English messages as flat keys: 'ra.action.save' → 'Save'. */
function flat(messages: object, prefix = ''): Array<[string, string]> {
  return Object.entries(messages).flatMap(([key, value]): Array<[string, string]> =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flat(value as object, `${prefix}${key}.`),
  );
}

async function translateIn(language: 'en' | 'hi'): Promise<Translate> {
  const { result } = renderHook(() => useT(), { wrapper: ({ children }) => <I18nProvider language={language}>{children}</I18nProvider> });
  if (language !== 'en') await waitFor(() => expect(result.current.intl.locale).toMatch(new RegExp(`^${language}`)));
  return result.current;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the console's i18nProvider", () => {
  it("says react-admin's English exactly as react-admin's own (polyglot) provider did, for one and for many", async () => {
    const english = consoleI18nProvider(await translateIn('en'), 'en', () => {});
    const polyglot = polyglotI18nProvider(() => englishMessages, 'en');
    const keys = flat(englishMessages);
    expect(keys.length).toBeGreaterThan(150);
    for (const [key, phrase] of keys) {
      const values = Object.fromEntries([...phrase.matchAll(/%\{(\w+)\}/g)].map(([, name]) => [name!, `<${name}>`]));
      expect(english.translate(key, values), key).toBe(polyglot.translate(key, values));
      for (const smart_count of [0, 1, 2, 1234]) {
        const options = { ...values, smart_count };
        expect(english.translate(key, options), `${key} (${smart_count})`).toBe(polyglot.translate(key, options));
      }
      if (key !== 'ra.boolean.null') expect(enAdmin, key).toHaveProperty([`admin.${key}`]);
    }
  });

  it('keeps the words of the console bar (CATCH_UP_TEXTS) equal to its catalogue English', () => {
    expect(enAdmin['admin.stillUpdating']).toBe(CATCH_UP_TEXTS.updating);
    expect(enAdmin['admin.mayBeOutOfDate']).toBe(CATCH_UP_TEXTS.behind);
    expect(enAdmin['admin.checkAgain']).toBe(CATCH_UP_TEXTS.retry);
  });

  it("gives a key no catalogue has as react-admin's default text, else as itself (a label already in words)", async () => {
    const hindi = consoleI18nProvider(await translateIn('hi'), 'hi', () => {});
    expect(hindi.translate('ra.action.save')).toBe('सेव करें');
    expect(hindi.translate('resources.users.fields.account_type', { _: 'Account type' })).toBe('खाते का प्रकार');
    expect(hindi.translate('resources.users.name', { smart_count: 2 })).toBe('उपयोगकर्ता');
    expect(hindi.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe('42 में से 1-10');
    expect(hindi.translate('resources.users.fields.nickname', { _: 'Nickname' })).toBe('Nickname');
    expect(hindi.translate('custom.bulk', { _: 'Delete %{name} |||| Delete %{smart_count} %{name}', smart_count: 3, name: 'rows' })).toBe('Delete 3 rows');
    expect(hindi.translate('पहले से अनुवादित')).toBe('पहले से अनुवादित');
    expect(polyglotPhrase('Go to %{page} of %{missing}', { page: 2 })).toBe('Go to 2 of %{missing}');
    expect(hindi.getLocales?.()).toEqual(expect.arrayContaining([{ locale: 'hi', name: 'हिन्दी' }, { locale: 'ta', name: 'தமிழ்' }]));
    expect(hindi.getLocale()).toBe('hi');
  });

  it("says a server's refusal in English as its detail, in another language by its code", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(404, { detail: 'Institution not found', code: 'institution_not_found', values: [] })));
    await expect(httpClient('/api/v1/admin/institutions/x')).rejects.toThrow('Institution not found');
    const english = consoleI18nProvider(await translateIn('en'), 'en', () => {});
    const hindi = consoleI18nProvider(await translateIn('hi'), 'hi', () => {});
    // react-admin notifies a failed mutation as notify(error.message, { messageArgs: { _: error.message } }).
    expect(english.translate('Institution not found', { _: 'Institution not found' })).toBe('Institution not found');
    expect(hindi.translate('Institution not found', { _: 'Institution not found' })).toBe('संस्था नहीं मिली');
  });
});

const appointmentRow = {
  id: 'a1',
  patient_name: 'Asha Verma',
  doctor_name: 'Dr Rao',
  start: '2026-11-25T04:30:00Z',
  status: 'confirmed',
  notes: 'Fever',
  institution_id: 'i1',
};

function Console({ dataProvider }: { dataProvider: DataProvider }) {
  const { i18nProvider, store } = useConsoleLanguage();
  return (
    <Admin dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} disableTelemetry>
      <Resource name="appointments" {...appointments} />
    </Admin>
  );
}

describe('the console in Hindi', () => {
  it("shows react-admin's own words, the column headers, the statuses and the dates in Hindi, and follows a change of language without re-mounting", async () => {
    const dataProvider = {
      getList: vi.fn(async () => ({ data: [appointmentRow], total: 1 })),
      getMany: async () => ({ data: [] }),
      getManyReference: async () => ({ data: [], total: 0 }),
      getOne: async () => ({ data: appointmentRow }),
    } as unknown as DataProvider;
    render(
      <I18nProvider language="hi">
        <MemoryRouter initialEntries={['/appointments']}>
          <Console dataProvider={dataProvider} />
        </MemoryRouter>
      </I18nProvider>,
    );
    // react-admin's own words: the list's Export action and the pagination.
    await screen.findByRole('button', { name: 'एक्सपोर्ट करें' });
    await screen.findByText('1 में से 1-1');
    // The column headers (resources.appointments.fields.*) and a status from the console's catalogue.
    const table = screen.getByRole('table');
    within(table).getByText('तारीख़ और समय');
    within(table).getByText('मरीज़');
    within(table).getByText('कन्फ़र्म');
    // The appointment's time in Hindi's month names, in India's time (10:00 am).
    expect(table.textContent).toContain('25 नव॰ 2026');
    // The menu (the resource's name) too.
    expect(screen.getAllByText('अपॉइंटमेंट').length).toBeGreaterThan(0);

    // The console's language menu (react-admin's, with each language by its own name) chooses for the whole app.
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'हिन्दी' }));
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));
    await screen.findByRole('button', { name: 'Export' });
    within(table).getByText('Date & Time');
    within(table).getByText('confirmed');
    expect(table.isConnected, 'the same table, re-rendered in English rather than mounted again').toBe(true);
    expect(document.documentElement.lang).toBe('en');
  });
});
