import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../../lib/toasts';
import { I18nProvider, LANGUAGE_STORAGE_KEY } from '../../i18n/I18nProvider';
import { LoginPage } from './LoginPage';

function renderLogin() {
  render(
    <I18nProvider>
      <ToastProvider>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
        </MemoryRouter>
      </ToastProvider>
    </I18nProvider>,
  );
}

describe('the sign-in page in the patient’s language (issue 33)', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
    document.documentElement.lang = '';
  });

  it('speaks English by default, with the seeds’ texts', () => {
    renderLogin();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Support Team Access' }).getAttribute('href')).toBe('/support');
    expect((screen.getByLabelText('Language') as HTMLSelectElement).value).toBe('en');
  });

  it('switches to the language picked, at once and without a reload, keeps the choice, and sets <html lang>', async () => {
    renderLogin();
    const picker = screen.getByLabelText('Language') as HTMLSelectElement;
    // Each language is offered by its own name.
    expect([...picker.options].map((o) => o.textContent)).toEqual(['English', 'हिन्दी', 'मराठी', 'ગુજરાતી', 'বাংলা', 'தமிழ்', 'తెలుగు', 'ಕನ್ನಡ', 'മലയാളം', 'ਪੰਜਾਬੀ']);
    fireEvent.change(picker, { target: { value: 'hi' } });
    expect(await screen.findByRole('button', { name: 'Google से जारी रखें' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'सहायता टीम के लिए साइन इन' }).getAttribute('href')).toBe('/support');
    expect((screen.getByLabelText('भाषा') as HTMLSelectElement).value).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');

    fireEvent.change(screen.getByLabelText('भाषा'), { target: { value: 'ta' } });
    expect(await screen.findByRole('button', { name: 'Google மூலம் தொடரவும்' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ta');
  });

  it('opens in the language chosen before in this browser, else the first of the browser’s languages it speaks', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'bn');
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Google দিয়ে চালিয়ে যান' })).toBeTruthy();
    cleanup();
    localStorage.clear();
    vi.stubGlobal('navigator', { ...navigator, languages: ['fr-FR', 'ml-IN', 'en'] });
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Google ഉപയോഗിച്ച് തുടരുക' })).toBeTruthy();
  });
});
