import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { CssBaseline, ThemeProvider } from '@mui/material';
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

/**
 * A public page as HTML, rendered once at build time (vite.config.ts writes it into dist/), so it paints as soon as
 * its HTML and stylesheet arrive instead of after the scripts download and run. Emotion's styles come out as
 * <style data-emotion> tags inside the markup; the build moves them into the head.
 */
export function renderPage(path: string): string {
  const page = PRERENDERED_PAGES[path];
  if (!page) throw new Error(`no prerendered page at ${path}`);
  return renderToString(
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>{page()}</MemoryRouter>
      </ToastProvider>
    </ThemeProvider>,
  );
}
