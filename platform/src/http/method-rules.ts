import express, { type RequestHandler, type Response, type Router } from 'express';
import { API_TEXTS } from '@telemed/contracts';
import { HttpError } from './errors';
import type { DeclaredRoute } from './api-router';

type AllowedLocals = { allowedMethods?: Set<string> };

/**
 * What each API path accepts, from the routes as declared across every router mounted at the same place (a path's GET
 * may be the query service's and its POST the command service's): OPTIONS is answered 204 with `Allow` for all of them
 * together (Express's own answer names only the first router's methods, in a text body), and a method the path does
 * not take is 405 with `Allow` and a `{detail}`, instead of the 404 of an unknown path.
 */
export function methodRules(routes: readonly DeclaredRoute[]): { options: RequestHandler; notAllowed: Router } {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  // Express matches the paths itself: every declared path the request's path fits adds its methods (`/appointments/me`
  // and `/appointments/:id` may both fit one path).
  const collect = express.Router();
  for (const [path, methods] of methodsByPath) {
    collect.all(path, (_req, res, next) => {
      const locals = res.locals as AllowedLocals;
      locals.allowedMethods ??= new Set();
      for (const method of methods) locals.allowedMethods.add(method);
      next();
    });
  }
  const allowHeader = (res: Response) => {
    const allowed = (res.locals as AllowedLocals).allowedMethods;
    return allowed ? [...allowed, 'OPTIONS'].join(', ') : null;
  };

  const notAllowed = express.Router();
  notAllowed.use(collect);
  notAllowed.use((req, res, next) => {
    const allow = allowHeader(res);
    if (!allow) return next();
    next(new HttpError(405, API_TEXTS.methodNotAllowed(req.method, allow), { Allow: allow }));
  });

  const answerOptions = express.Router();
  answerOptions.use(collect);
  answerOptions.use((_req, res, next) => {
    const allow = allowHeader(res);
    if (!allow) return next();
    res.set('Allow', allow).status(204).end();
  });
  const options: RequestHandler = (req, res, next) => (req.method === 'OPTIONS' ? answerOptions(req, res, next) : next());
  return { options, notAllowed };
}
