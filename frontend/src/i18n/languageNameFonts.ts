import devanagari from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2?url';
import bengali from '@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff2?url';
import gurmukhi from '@fontsource/noto-sans-gurmukhi/files/noto-sans-gurmukhi-gurmukhi-400-normal.woff2?url';
import gujarati from '@fontsource/noto-sans-gujarati/files/noto-sans-gujarati-gujarati-400-normal.woff2?url';
import tamil from '@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-400-normal.woff2?url';
import telugu from '@fontsource/noto-sans-telugu/files/noto-sans-telugu-telugu-400-normal.woff2?url';
import kannada from '@fontsource/noto-sans-kannada/files/noto-sans-kannada-kannada-400-normal.woff2?url';
import malayalam from '@fontsource/noto-sans-malayalam/files/noto-sans-malayalam-malayalam-400-normal.woff2?url';

/**
 * The font the language pickers name the ten languages in, each in its own script. A picker measures every name it
 * offers, so with the page's web fonts it downloaded all nine scripts' fonts (about 240 KB) for every visitor; with the
 * system's fonts alone, a system without a script showed boxes. This family takes each script from the system when it
 * has it (Android's and Linux's Noto, Windows' Nirmala UI, Apple's own) and downloads the web font only when not.
 */
const FAMILY = 'Telemed Language Names';

const SCRIPTS: ReadonlyArray<{ noto: string; apple: string; url: string; range: string }> = [
  { noto: 'Noto Sans Devanagari', apple: 'Kohinoor Devanagari', url: devanagari, range: 'U+0900-097F, U+1CD0-1CFF, U+A8E0-A8FF' },
  { noto: 'Noto Sans Bengali', apple: 'Kohinoor Bangla', url: bengali, range: 'U+0980-09FF' },
  { noto: 'Noto Sans Gurmukhi', apple: 'Gurmukhi MN', url: gurmukhi, range: 'U+0A00-0A7F' },
  { noto: 'Noto Sans Gujarati', apple: 'Kohinoor Gujarati', url: gujarati, range: 'U+0A80-0AFF' },
  { noto: 'Noto Sans Tamil', apple: 'Tamil Sangam MN', url: tamil, range: 'U+0B80-0BFF' },
  { noto: 'Noto Sans Telugu', apple: 'Kohinoor Telugu', url: telugu, range: 'U+0C00-0C7F' },
  { noto: 'Noto Sans Kannada', apple: 'Kannada Sangam MN', url: kannada, range: 'U+0C80-0CFF' },
  { noto: 'Noto Sans Malayalam', apple: 'Malayalam Sangam MN', url: malayalam, range: 'U+0D00-0D7F' },
];

let added = false;

/** The CSS font-family for languages' own names (their faces registered on first use; loaded only where needed). */
export function languageNameFonts(): string {
  if (!added && typeof document !== 'undefined' && typeof FontFace !== 'undefined' && document.fonts) {
    for (const script of SCRIPTS) {
      // local() matches a face's full or PostScript name ('Noto Sans Tamil Regular', 'NotoSansTamil-Regular').
      const noto = [`${script.noto} Regular`, `${script.noto.replace(/ /g, '')}-Regular`, `${script.noto} UI Regular`];
      const sources = [...noto, 'Nirmala UI', script.apple].map((name) => `local("${name}")`);
      document.fonts.add(new FontFace(FAMILY, [...sources, `url(${script.url}) format("woff2")`].join(', '), { unicodeRange: script.range, display: 'swap' }));
    }
    added = true;
  }
  return `system-ui, -apple-system, "Segoe UI", Roboto, "${FAMILY}", sans-serif`;
}
