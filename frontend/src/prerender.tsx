import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { IntlProvider } from 'react-intl';
import { intlLocale, type LanguageCode } from '@telemed/contracts/languages';
import { theme } from './app/theme';
import { ToastProvider } from './lib/toasts';
import { LoginPage } from './features/auth/LoginPage';
import { WelcomePage } from './features/public/WelcomePage';
import { DoctorPageLoading } from './features/public/DoctorLandingPage';

/** The pages whose HTML is rendered at build time: they show the same to every visitor. */
export const PRERENDERED_PAGES: Record<string, () => ReactNode> = {
  '/login': () => <LoginPage />,
  '/welcome': () => <WelcomePage />,
  // A registered doctor's page (/{doctorId}) before its profile has arrived: the same for every doctor.
  '/:doctorId': () => <DoctorPageLoading />,
};

// At build time every language's catalogues, as text (this module is rendered by Vite's SSR, with the full react-intl).
const catalogues = import.meta.glob<{ default: Record<string, string> }>('./i18n/catalogues/*/*.json', { eager: true });

/** A language's messages over English's, as the app shows them. */
function messagesOf(language: LanguageCode): Record<string, string> {
  const of = (code: string) => Object.entries(catalogues).filter(([path]) => path.startsWith(`./i18n/catalogues/${code}/`)).map(([, c]) => c.default);
  return Object.assign({}, ...of('en'), ...(language === 'en' ? [] : of(language)));
}

/**
 * A public page as HTML in one of the ten languages, rendered once at build time (vite.config.ts writes it into dist/), so it paints as soon as
 * its HTML and stylesheet arrive instead of after the scripts download and run. Emotion's styles come out as
 * <style data-emotion> tags inside the markup; the build moves them into the head.
 */
export function renderPage(path: string, language: LanguageCode = 'en'): string {
  const page = PRERENDERED_PAGES[path];
  if (!page) throw new Error(`no prerendered page at ${path}`);
  return renderToString(
    <IntlProvider locale={intlLocale(language)} defaultLocale="en-IN" messages={messagesOf(language)}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <MemoryRouter initialEntries={[path]}>{page()}</MemoryRouter>
        </ToastProvider>
      </ThemeProvider>
    </IntlProvider>,
  );
}
