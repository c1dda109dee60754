import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Express } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Hashed build assets never change under their name: browsers keep them a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

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
  app.get(/^(?!\/(api|ws|docs)\b).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'));
  });
}
