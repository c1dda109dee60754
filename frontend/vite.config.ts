import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { parse } from '@formatjs/icu-messageformat-parser';
import { compression } from 'vite-plugin-compression2';

/**
 * Pages served with their content already in the HTML (rendered by src/prerender.tsx), and the module each shows
 * (lazily loaded by the app; preloaded by the page's HTML). On Fast 3G such a page paints after its HTML and the
 * stylesheet (about 1.4 s) instead of after the scripts have downloaded and run (about 2.5 to 3 s). The markup is
 * inert until the app's first render replaces it with the live page. Its styles go in a <style> element: the CSP's
 * style-src already allows inline styles (emotion inserts them at run time); scripts stay external ('self' only).
 * platform/src/http/static-frontend.ts serves each file at its path.
 */
const PRERENDERED: Array<{ path: string; file: string; module: string | null; description?: string }> = [
  { path: '/login', file: 'login.html', module: null },
  {
    path: '/welcome',
    file: 'welcome.html',
    module: 'src/features/public/WelcomePage.tsx',
    description: 'Telemed: video consultations with doctors across India, digital prescriptions and encrypted health records, for patients, independent doctors and clinic networks.',
  },
  // A registered doctor's page, its frame and loading state (the profile comes from the API as the app starts). The
  // server puts the doctor's own description and Open Graph tags in it (services/all-in-one/src/doctor-pages.ts).
  { path: '/:doctorId', file: 'doctor.html', module: 'src/features/public/DoctorLandingPage.tsx' },
];
const DEFAULT_DESCRIPTION = /<meta name="description" content="[^"]*"\s*\/?>/;

/** The ten languages' codes (contracts/src/languages.ts; this config is not bundled, so it reads them itself). */
const LANGUAGE_CODES = ['en', 'hi', 'mr', 'gu', 'bn', 'ta', 'te', 'kn', 'ml', 'pa'] as const;

/** The tab's title in a language: its shell catalogue's `shell.documentTitle` (plain text with the product's name). */
function titleIn(language: string, product: string): string {
  const shell = JSON.parse(readFileSync(resolve(import.meta.dirname, `src/i18n/catalogues/${language}/shell.json`), 'utf8')) as Record<string, string>;
  const title = shell['shell.documentTitle']!.replace('{product}', product);
  return title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/** A prerendered page's file in a language: `login.html` in English, `login.hi.html` in Hindi. */
const fileIn = (file: string, language: string) => (language === 'en' ? file : file.replace(/\.html$/, `.${language}.html`));

function prerenderPages(): Plugin {
  let outDir = '';
  const preloads = new Map<string, string[]>();
  // Each language's catalogue chunks: a page in that language preloads them, so the app starts in it at once.
  const cataloguePreloads = new Map<string, string[]>();
  return {
    name: 'telemed-prerender-pages',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      // A lazily loaded page's chunk and every chunk it imports, which index.html does not already preload.
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const withImports = (name: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(name)) return seen;
        seen.add(name);
        for (const imported of chunks.get(name)?.imports ?? []) withImports(imported, seen);
        return seen;
      };
      const entry = [...chunks.values()].find((c) => c.isEntry);
      const initial = entry ? withImports(entry.fileName) : new Set<string>();
      for (const language of LANGUAGE_CODES) {
        const own = [...chunks.values()].filter((c) => c.moduleIds.some((id) => id.includes(`/src/i18n/catalogues/${language}/`)));
        cataloguePreloads.set(language, language === 'en' ? [] : own.map((c) => c.fileName).filter((name) => !initial.has(name)));
      }
      for (const { file, module } of PRERENDERED) {
        // The page module's own chunk, or the chunk of the group it was put in (see codeSplitting below).
        const chunk = module && ([...chunks.values()].find((c) => c.facadeModuleId?.endsWith(module)) ?? [...chunks.values()].find((c) => c.moduleIds.some((id) => id.endsWith(module))));
        if (module && !chunk) throw new Error(`prerender: no chunk for ${module}`);
        preloads.set(file, chunk ? [...withImports(chunk.fileName)].filter((name) => !initial.has(name)) : []);
      }
    },
    async closeBundle() {
      const server = await createServer({ configFile: false, root: import.meta.dirname, logLevel: 'error', appType: 'custom', server: { middlewareMode: true, hmr: false, ws: false }, plugins: [react()] });
      try {
        const { renderPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as { renderPage: (path: string, language: string) => string };
        const index = readFileSync(resolve(outDir, 'index.html'), 'utf8');
        if (!DEFAULT_DESCRIPTION.test(index)) throw new Error('prerender: index.html has no meta description');
        // The product's name as index.html's English title begins with it ('Telemed — …').
        const product = /<title>([^<]+?) — /.exec(index)?.[1];
        if (!product) throw new Error('prerender: index.html has no "<name> — …" title');
        // Each page in each language (the server answers a visitor in theirs: platform/src/http/static-frontend.ts).
        for (const { path, file, description } of PRERENDERED) {
          for (const language of LANGUAGE_CODES) {
            let css = '';
            const markup = renderPage(path, language).replace(/<style data-emotion="[^"]*"[^>]*>([^<]*)<\/style>/g, (_, rules: string) => {
              css += rules;
              return '';
            });
            // The page's own module and the language's catalogue (the app's first render waits for it), asked for
            // with the HTML. (At low priority, or with the script's font preloaded too, Hindi painted no sooner on
            // Fast 3G: measured with npm run bench.)
            const links = [
              ...(preloads.get(file) ?? []).map((name) => `  <link rel="modulepreload" crossorigin href="/${name}">\n  `),
              ...(cataloguePreloads.get(language) ?? []).map((name) => `  <link rel="modulepreload" crossorigin href="/${name}">\n  `),
            ].join('');
            const html = index
              .replace('<html lang="en">', `<html lang="${language}">`)
              .replace(/<title>[^<]*<\/title>/, () => `<title>${titleIn(language, product)}</title>`)
              .replace(DEFAULT_DESCRIPTION, (tag) => (description ? `<meta name="description" content="${description}" />` : tag))
              .replace('</head>', `${links}  <style data-prerendered>${css}</style>\n  </head>`)
              .replace('<div id="root"></div>', `<div id="root"><div data-prerendered inert>${markup}</div></div>`);
            if (!html.includes('data-prerendered inert')) throw new Error('prerender: index.html has no root element');
            if (!html.includes(`<html lang="${language}">`)) throw new Error('prerender: index.html has no <html lang="en">');
            writeFileSync(resolve(outDir, fileIn(file, language)), html);
          }
        }
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Editor.js's image and link tools bundle an old ajax helper that finds the global object with `new Function("return
 * this")()`: the page's CSP refuses that (it is caught, but reported as a violation). `globalThis` is the same object.
 */
function editorJsWithoutEval(): Plugin {
  return {
    name: 'editorjs-without-eval',
    transform(code, id) {
      if (!id.includes('/node_modules/@editorjs/') || !code.includes('new Function("return this")()')) return null;
      return { code: code.replaceAll('new Function("return this")()', 'globalThis'), map: null };
    },
  };
}

/**
 * The language catalogues (src/i18n/catalogues/<language>/<feature>.json) compiled to ICU syntax trees as they are
 * bundled: a message that does not parse fails the build, and the page ships react-intl without its message parser
 * (the alias below), some 11 KB gzipped less. Vitest reads the catalogues as text and parses them as it goes.
 */
function compiledCatalogues(): Plugin {
  return {
    name: 'telemed-compiled-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/]i18n[\\/]catalogues[\\/][a-z]{2}[\\/][^\\/]+\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, parse(message)];
          } catch (error) {
            throw new Error(`${id}: the message ${key} is not ICU MessageFormat (${(error as Error).message})`, { cause: error });
          }
        }),
      );
      // Still JSON: Vite's JSON plugin makes it a module after this.
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

export default defineConfig({
  // Every asset also as .gz and .br next to it: the server sends the precompressed file the browser accepts.
  plugins: [compiledCatalogues(), react(), editorJsWithoutEval(), compression({ algorithms: ['gzip', 'brotliCompress'], exclude: [/\.map$/], threshold: 1024 }), prerenderPages()],
  resolve: { alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }] },
  server: { proxy: { '/api': 'http://localhost:8000', '/ws': { target: 'ws://localhost:8000', ws: true }, '/docs': 'http://localhost:8000' } },
  build: {
    outDir: 'dist',
    // Maps for reading a stack trace, without the comment that names them in the served files; npm run build moves
    // them out of dist (to sourcemaps/), and the server never serves a .map file.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The first load is a few files fetched side by side, not a dozen shared fragments: on Fast 3G a browser
          // opens 6 connections per host and each extra request in a queue costs a 562 ms round trip. React
          // (changes least, cached longest) in one file; everything else the entry imports statically in another.
          // The query library (every page that reads the API) in one file of its own. The public doctor page, which a
          // patient opens from a shared link on a phone, is one file with everything it imports beyond those (its MUI
          // pieces: tabs, dialog, chips, lists, grid; the slot picker): automatic chunking had cut it into some 25
          // fragments, which on Fast 3G queue 5 round trips deep behind the 6 connections. Pages that share a piece
          // with it import that file too (the welcome, prescription check and blog post pages load about 25 KB more,
          // in no more requests; the signed-in pages about as many bytes in far fewer requests). Other lazily loaded
          // pages keep the automatic chunks of what only they use.
          groups: [
            // A language's catalogues in one file (fetched when it is chosen, preloaded by the pages rendered in it),
            // not one per feature: fourteen requests would queue behind Fast 3G's six connections.
            ...LANGUAGE_CODES.filter((code) => code !== 'en').map((code) => ({ name: `catalogue-${code}`, test: new RegExp(`[\\\\/]src[\\\\/]i18n[\\\\/]catalogues[\\\\/]${code}[\\\\/]`), priority: 6 })),
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 5 },
            { name: 'initial', tags: ['$initial'], priority: 4 },
            { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]|[\\/]src[\\/]app[\\/]QueryLayer\.tsx$/, priority: 3 },
            // The sign-in page's phone dialog and the welcome page stay theirs (the doctor page loads these files too), so
            // /login and /welcome never fetch the doctor page's file. The dialog's file holds its own modules only: the
            // form fields it shares with other screens stay in the shared chunks rather than every screen loading it.
            { name: 'PhoneNotice', test: /[\\/]src[\\/]features[\\/]auth[\\/](PhoneNotice|PhoneCodeForm)\.tsx$/, priority: 2, includeDependenciesRecursively: false },
            { name: 'WelcomePage', test: /[\\/]src[\\/]features[\\/]public[\\/]WelcomePage\.tsx$/, priority: 2 },
            // With its dependencies (includeDependenciesRecursively is on by default).
            { name: 'public-doctor', test: /[\\/]src[\\/]features[\\/]public[\\/]DoctorLandingPage\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
});
