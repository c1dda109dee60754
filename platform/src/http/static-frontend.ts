import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Express } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { DEFAULT_TIMEZONE, PUBLIC_DOCTOR_PAGE_PATH, publicDoctorProfileUrl } from '@telemed/contracts';

/** Hashed build assets never change under their name: browsers keep them a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PRERENDERED: Array<[path: string | RegExp, file: string]> = [
  ['/login', 'login.html'],
  ['/welcome', 'welcome.html'],
  // A registered doctor's public page: its frame, with the page's scripts preloaded (the same for every doctor).
  [PUBLIC_DOCTOR_PAGE_PATH, 'doctor.html'],
];

/**
 * Serves the built single-page app: the precompressed `.br`/`.gz` file the browser accepts (the build writes them
 * next to each asset), hashed assets cached for good, and index.html for every other path (revalidated each time, so
 * a deploy is picked up at once).
 */
export function serveFrontend(app: Express, dir: string): void {
  app.use(
    expressStaticGzip(dir, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: {
        setHeaders: (res: ServerResponse, path: string) => void res.setHeader('Cache-Control', path.startsWith(join(dir, 'assets')) ? IMMUTABLE : 'no-cache'),
      },
    }),
  );
  // /login, /welcome and a doctor's page have their own pages with the screen already rendered in them (the build's
  // login.html, welcome.html and doctor.html, see frontend/vite.config.ts), so they paint before the scripts have
  // loaded on a slow network; every other path gets index.html.
  for (const [path, file] of PRERENDERED) {
    if (path === PUBLIC_DOCTOR_PAGE_PATH) continue;
    app.get(path, (_req, res, next) => {
      const page = join(dir, file);
      if (!existsSync(page)) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(page);
    });
  }
  // A doctor's page also starts the request for the doctor's profile (in India's time, the usual case; the app asks
  // for the same URL when the browser's zone is India's) while the scripts download, instead of after they have run.
  app.get(PUBLIC_DOCTOR_PAGE_PATH, (req, res, next) => {
    const page = join(dir, 'doctor.html');
    if (!existsSync(page)) return next();
    const doctorId = PUBLIC_DOCTOR_PAGE_PATH.exec(req.path)![1]!; // hex digits and dashes only
    const preload = `<link rel="preload" as="fetch" crossorigin href="${publicDoctorProfileUrl(doctorId, DEFAULT_TIMEZONE)}">`;
    readFile(page, 'utf8').then((html) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html.replace('<head>', `<head>\n    ${preload}`));
    }, next);
  });
  app.get(/^(?!\/(api|ws|docs)\b).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'));
  });
}
