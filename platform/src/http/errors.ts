import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import { ZodError, type z } from 'zod';
import { API_TEXTS, DomainError, ERROR_CODES, errorBody } from '@telemed/contracts';
import { WrongExpectedRevisionError } from '../event-store/port';
import { SubjectErasedError } from '../keystore/port';
import type { Logger } from '../logger';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** 422 with FastAPI-style `{"detail": [{loc, msg, type}]}`. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }

  static fromZod(where: 'body' | 'query' | 'path', error: ZodError): RequestValidationError {
    return new RequestValidationError(
      error.issues.map((issue: z.core.$ZodIssue) => ({
        loc: [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
        msg: issue.code === 'invalid_type' && /received undefined/.test(issue.message) ? 'Field required' : issue.message,
        type: issue.code,
      })),
    );
  }
}

const domainStatus = { not_found: 404, conflict: 409, forbidden: 403, invalid: 422, payment_required: 402 } as const;

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Maps every known error to `{"detail": ..., "code": ...}` with its 4xx (contracts/error-codes); anything else is a logged 500 without internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    void _next;
    if (res.headersSent) return;
    if (error instanceof RequestValidationError) {
      res.status(422).json(errorBody(422, error.issues));
      return;
    }
    if (error instanceof HttpError) {
      res.set(error.headers).status(error.status).json(errorBody(error.status, error.detail));
      return;
    }
    if (error instanceof DomainError) {
      res.status(domainStatus[error.kind]).json(error.code ? { detail: error.message, code: error.code } : errorBody(domainStatus[error.kind], error.message));
      return;
    }
    if (error instanceof SubjectErasedError) {
      res.status(410).json(errorBody(410, API_TEXTS.personErased));
      return;
    }
    if (error instanceof WrongExpectedRevisionError) {
      res.status(409).json({ detail: API_TEXTS.concurrencyExhausted, code: ERROR_CODES.concurrentChange });
      return;
    }
    const parserError = error as BodyParserError;
    if (parserError?.type === 'entity.too.large') {
      res.status(413).json(errorBody(413, API_TEXTS.bodyTooLarge));
      return;
    }
    if (parserError?.type === 'entity.parse.failed') {
      res.status(400).json(errorBody(400, API_TEXTS.malformedJson));
      return;
    }
    // A library's error with a status (body-parser, send, http-errors): its message may name a file on disk or the
    // library's internals, so the answer says only what kind of failure it was.
    const status = typeof parserError?.status === 'number' ? parserError.status : 500;
    if (status >= 400 && status < 500) {
      res.status(status).json(errorBody(status, LIBRARY_4XX_TEXTS[parserError.type ?? ''] ?? genericDetail(status)));
      return;
    }
    logger.error({ err: error, method: req.method, route: req.route?.path }, 'unhandled error');
    res.status(status === 503 ? 503 : 500).json(status === 503 ? errorBody(503, API_TEXTS.serviceUnavailable) : errorBody(500, API_TEXTS.internalError));
  };
}

const LIBRARY_4XX_TEXTS: Record<string, string> = {
  'charset.unsupported': API_TEXTS.unsupportedCharset,
  'encoding.unsupported': API_TEXTS.unsupportedEncoding,
};

function genericDetail(status: number): string {
  return status === 404 ? API_TEXTS.notFound : (STATUS_CODES[status] ?? 'Bad Request');
}
