import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Self-hosted fonts, only the weights the theme uses; each script's files load only when a page shows that script
// (their @font-face rules name their unicode-range): one for each of the ten languages' scripts.
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/600.css';
import '@fontsource/noto-sans/700.css';
import '@fontsource/noto-sans-devanagari/400.css';
import '@fontsource/noto-sans-bengali/400.css';
import '@fontsource/noto-sans-telugu/400.css';
import '@fontsource/noto-sans-gujarati/400.css';
import '@fontsource/noto-sans-tamil/400.css';
import '@fontsource/noto-sans-kannada/400.css';
import '@fontsource/noto-sans-malayalam/400.css';
import '@fontsource/noto-sans-gurmukhi/400.css';
import { App, preloadPrerenderedPage } from './app/App';
import { prefetchPublicDoctor } from './features/public/earlyProfile';
import { loadMessages } from './i18n/catalogues';
import { initialLanguage } from './i18n/I18nProvider';

// A tab left open across a deploy asks for a chunk of the build it started with, which is gone: load the page again
// once (the new build's), rather than break where the chunk was needed; a second failure is left to the error screen.
window.addEventListener('vite:preloadError', (event) => {
  if (sessionStorage.getItem('reloaded_for_new_build') === '1') return;
  sessionStorage.setItem('reloaded_for_new_build', '1');
  event.preventDefault();
  window.location.reload();
});
window.addEventListener('load', () => window.setTimeout(() => sessionStorage.removeItem('reloaded_for_new_build'), 10_000));

// A doctor's public page asks for the doctor's profile now, while its scripts are still on their way.
prefetchPublicDoctor(window.location.pathname);

const root = document.getElementById('root')!;
// /login and /welcome arrive with the page already rendered (login.html, welcome.html: see vite.config.ts): the first
// render replaces that inert copy, and its inline styles go with it once the app's own are in place.
const prerenderedStyles = document.querySelector('style[data-prerendered]');
if (prerenderedStyles) {
  new MutationObserver((_, observer) => {
    if (root.querySelector('[data-prerendered]')) return;
    prerenderedStyles.remove();
    observer.disconnect();
  }).observe(root, { childList: true });
}

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The app renders even if that page could not be loaded (its lazy component tries again). It renders in the visitor's
// language from the first frame: their catalogue is fetched beside the page (in English only if it could not be).
const language = loadMessages(initialLanguage()).catch(() => undefined);
void Promise.all([preloadPrerenderedPage(window.location.pathname), language]).then(render, render);
