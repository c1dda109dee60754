import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Self-hosted fonts, only the weights the theme uses; each script's files load only when a page shows that script.
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/600.css';
import '@fontsource/noto-sans/700.css';
import '@fontsource/noto-sans-devanagari/400.css';
import '@fontsource/noto-sans-bengali/400.css';
import '@fontsource/noto-sans-telugu/400.css';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
