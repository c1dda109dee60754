import { pino, type DestinationStream, type Logger } from 'pino';
import { errorForLog } from './error-for-log';

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
  },
    options.destination,
  );
}
