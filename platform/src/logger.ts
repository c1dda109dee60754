import { pino, type DestinationStream, type Logger } from 'pino';
import { errorForLog, scrubbed } from './error-for-log';

export type { Logger };

/**
 * JSON logs. Tokens, authorization headers and request bodies (which may hold health data) are redacted;
 * handlers log ids and outcomes, never notes or reasons; errors keep only their kind, code, and scrubbed message and
 * stack (error-for-log.ts).
 */
export function createLogger(options: { level?: string; name?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
    name: options.name ?? 'telemed',
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.query.token',
        'token',
        'access_token',
        'password',
        '*.token',
        '*.access_token',
        '*.password',
        'body',
        '*.body',
        'notes',
        '*.notes',
        'reason',
        '*.reason',
      ],
      censor: '[redacted]',
    },
    serializers: { err: errorForLog },
    hooks: {
      // An error logged without a message of its own (`logger.error(error)`, `logger.error({ err })`): pino would take
      // the error's message, unscrubbed, as the line's; the scrubbed one instead.
      logMethod(args, method) {
        const [first, message] = args as unknown[];
        const fields = first as { err?: unknown; msg?: unknown } | null | undefined;
        const error = first instanceof Error ? first : fields?.err;
        if (message !== undefined || fields?.msg !== undefined || !(error instanceof Error)) return method.apply(this, args);
        return (method as (obj: object, msg: string) => void).apply(this, [first instanceof Error ? { err: first } : (first as object), scrubbed(error.message)]);
      },
    },
  },
    options.destination,
  );
}
