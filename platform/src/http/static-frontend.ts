import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { API_TEXTS, errorBody, DEFAULT_TIMEZONE, PUBLIC_DOCTOR_PAGE_PATH, publicDoctorProfileUrl } from '@telemed/contracts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, isLanguageCode, type LanguageCode } from '@telemed/contracts/languages';

/** Hashed build assets never change under their name: browsers keep them a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The cookie the app keeps the chosen language in (frontend/src/i18n/I18nProvider.tsx), for pages rendered before it runs. */
export const LANGUAGE_COOKIE = 'telemed_language';

/**
 * The language a prerendered page is sent in: the one chosen in this browser (its cookie), else the first of the
 * browser's languages (Accept-Language, by preference) that the product speaks, else English.
 */
export function pageLanguage(req: Request): LanguageCode {
  const chosen = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})(?:;|$)`).exec(req.headers.cookie ?? '')?.[1];
  if (isLanguageCode(chosen)) return chosen;
  const asked = req.headers['accept-language'] ? req.acceptsLanguages(...LANGUAGE_CODES) : false;
  return isLanguageCode(asked) ? asked : DEFAULT_LANGUAGE;
}

/** A prerendered page's file in a language (the build writes `login.hi.html` beside `login.html`). */
const fileIn = (file: string, language: LanguageCode) => (language === DEFAULT_LANGUAGE ? file : file.replace(/\.html$/, `.${language}.html`));

const PRERENDERED: Array<[path: string | RegExp, file: string]> = [
  ['/login', 'login.html'],
  ['/welcome', 'welcome.html'],
  // A registered doctor's public page: its frame, with the page's scripts preloaded (the same for every doctor).
  [PUBLIC_DOCTOR_PAGE_PATH, 'doctor.html'],
];

/** Files of a build that are not for browsers: source maps show the app's source, comments and all. */
const NOT_SERVED = /\.map$/i;

/** The precompressed twins the build writes next to each asset, in the order they are preferred. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
/**
 * Paths that name a file rather than a screen of the app: the build's assets and anything with a file extension
 * (app routes never have one: slugs, ids and codes are letters, digits, hyphens and underscores).
 */
const FILE_PATH = /^\/assets\/|\.[A-Za-z0-9]{1,12}$/;
/**
 * A build replaces dist by renaming it aside and its new directory into place (frontend/scripts/swap-dist.mjs): for an
 * instant there is no dist. A file not found is looked up once more, after waiting (at most this long) for dist.
 */
const SWAP_WAIT_MS = 2000;

/**
 * Serves the built single-page app: the precompressed `.br`/`.gz` file the browser accepts (the build writes them
 * next to each asset), hashed assets cached for good, 404 for a file that is not there (a chunk of an older build),
 * and index.html for every other path (revalidated each time, so a deploy is picked up at once).
 */
export interface FrontendOptions {
  /**
   * The head tags (title, description, Open Graph; escaped by the caller) of a registered doctor's page, or null when
   * no doctor has that id: the page is then answered 404 (the app draws 'Doctor not found'), for search engines too.
   */
  doctorPageHead?(doctorId: string): Promise<string | null>;
}

export function serveFrontend(app: Express, dir: string, options: FrontendOptions = {}): void {
  app.use(precompressedStatic(dir));
  app.get(FILE_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.status(404).json(errorBody(404, API_TEXTS.notFound));
  });
  // /login, /welcome and a doctor's page have their own pages with the screen already rendered in them (the build's
  // login.html, welcome.html and doctor.html, see frontend/vite.config.ts), so they paint before the scripts have
  // loaded on a slow network; every other path gets index.html.
  for (const [path, file] of PRERENDERED) {
    if (path === PUBLIC_DOCTOR_PAGE_PATH) continue;
    app.get(path, (req, res, next) => {
      const inLanguage = join(dir, fileIn(file, pageLanguage(req)));
      const page = existsSync(inLanguage) ? inLanguage : join(dir, file);
      if (!existsSync(page)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Vary', 'Accept-Language, Cookie');
      sendPage(res, dir, page);
    });
  }
  // A doctor's page also starts the request for the doctor's profile (in India's time, the usual case; the app asks
  // for the same URL when the browser's zone is India's) while the scripts download, instead of after they have run.
  // Its status is the doctor's (404 for an id that is no doctor's) whatever the build holds at that instant: a page read
  // while dist is being swapped is read once more when it is back, never answered by the catch-all below with a 200.
  app.get(PUBLIC_DOCTOR_PAGE_PATH, (req, res) => {
    const doctorId = PUBLIC_DOCTOR_PAGE_PATH.exec(req.path)![1]!; // hex digits and dashes only
    const preload = `<link rel="preload" as="fetch" crossorigin href="${publicDoctorProfileUrl(doctorId, DEFAULT_TIMEZONE)}">`;
    const language = pageLanguage(req);
    const html = readDoctorPage(dir, language).catch(() => distBack(dir).then(() => readDoctorPage(dir, language)));
    // The doctor's own tags; a failure to read them costs the page its tags, not the page.
    const head = options.doctorPageHead ? options.doctorPageHead(doctorId).catch(() => '') : Promise.resolve('');
    Promise.all([html, head]).then(
      ([text, tags]) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('Vary', 'Accept-Language, Cookie');
        // Replacer functions: a replacement string would read `$&` in a doctor's name as the page's text.
        const withTags = tags ? text.replace(/\s*<title>[^<]*<\/title>/, () => '').replace(/\s*<meta name="description" content="[^"]*"\s*\/?>/, () => '').replace('</head>', () => `  ${tags}\n  </head>`) : text;
        res.status(tags === null ? 404 : 200).type('html').send(withTags.replace('<head>', () => `<head>\n    ${preload}`));
      },
      () => appUnavailable(res),
    );
  });
  app.get(/^(?!\/(api|ws|docs)\b).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    sendPage(res, dir, join(dir, 'index.html'));
  });
}

/** The build's prerendered doctor page in a language, else in English, or its index.html when it has none. */
function readDoctorPage(dir: string, language: LanguageCode): Promise<string> {
  return readFile(join(dir, fileIn('doctor.html', language)), 'utf8')
    .catch(() => readFile(join(dir, 'doctor.html'), 'utf8'))
    .catch(() => readFile(join(dir, 'index.html'), 'utf8'));
}

/** An HTML page of the build; if it cannot be read (dist being swapped), once more when dist is back. */
function sendPage(res: Response, dir: string, page: string): void {
  res.sendFile(page, (error?: Error) => {
    if (!error) return;
    if (res.headersSent) return void res.destroy();
    void distBack(dir).then(() => res.sendFile(page, (again?: Error) => again && appUnavailable(res)));
  });
}

/** Resolves once `dir` is there, or after SWAP_WAIT_MS (at once when it is there). */
async function distBack(dir: string): Promise<void> {
  const until = Date.now() + SWAP_WAIT_MS;
  while (!(await stat(dir).then((found) => found.isDirectory(), () => false)) && Date.now() < until) await delay(20);
}

/**
 * The page's file could not be read: a build is replacing dist (or it is gone). A short 503 the browser may retry,
 * never the file system's message (it names the path on disk).
 */
function appUnavailable(res: Response): void {
  if (res.headersSent) return void res.destroy();
  res.status(503).set({ 'Cache-Control': 'no-store', 'Retry-After': '5' }).json(errorBody(503, API_TEXTS.appUnavailable));
}

/**
 * express.static with the build's precompressed twins, looked up on each request (not indexed once at start): after a
 * rebuild the new assets get their `.br` too, and a file deleted since is a plain 404 without a `Content-Encoding`.
 */
function precompressedStatic(dir: string): RequestHandler {
  const root = resolve(dir);
  const serve = express.static(root, {
    index: false,
    redirect: false,
    setHeaders: (res: ServerResponse, path: string) => void res.setHeader('Cache-Control', path.startsWith(join(root, 'assets') + sep) ? IMMUTABLE : 'no-cache'),
  });
  const attempt = (req: Request, res: Response, next: NextFunction): void => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = resolve(root, `.${path}`);
    if (!file.startsWith(root + sep) || path.includes('\0') || NOT_SERVED.test(path)) return next();
    res.vary('Accept-Encoding');
    void pickVariant(req, file).then((variant) => {
      if (!variant) return serve(req, res, next);
      const original = req.url;
      const query = original.indexOf('?');
      req.url = req.path + variant.suffix + (query < 0 ? '' : original.slice(query));
      res.setHeader('Content-Encoding', variant.encoding);
      res.type(extname(path));
      serve(req, res, (error?: unknown) => {
        // The twin went away between the look-up and the read (a rebuild): serve the file itself, if still there.
        req.url = original;
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        if (error && !isMissing(error)) return next(error);
        serve(req, res, next);
      });
    }, next);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!FILE_PATH.test(req.path)) return attempt(req, res, next);
    attempt(req, res, (error?: unknown) => {
      if (error && !isMissing(error)) return next(error);
      // Not there (or gone between its look-up and its opening): perhaps in the instant a build was swapped in. Once
      // more, with dist back.
      void distBack(root).then(() => attempt(req, res, next), next);
    });
  };
}

/** send's error for a file that was there when looked up and gone when opened. */
function isMissing(error: unknown): boolean {
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'ENOENT' || code === 'ENOTDIR' || status === 404;
}

async function pickVariant(req: Request, file: string): Promise<(typeof PRECOMPRESSED)[number] | null> {
  for (const variant of PRECOMPRESSED) {
    if (req.acceptsEncodings(variant.encoding) !== variant.encoding) continue;
    const found = await stat(file + variant.suffix).catch(() => null);
    if (found?.isFile()) return variant;
  }
  return null;
}
