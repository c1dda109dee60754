import { ChannelSendError } from './port';

export interface ProviderAnswer {
  status: number;
  /** The answer's JSON, or null when it was not JSON. */
  body: unknown;
}

/** An answer from a provider's HTTP API should arrive well within this; past it the send is retried. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Removes what could name a person from a provider's error text before it becomes a message's last error (the console
 * shows it, logs may carry it): e-mail addresses and long digit runs (phone numbers). Short codes (131026, 400) stay.
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(/[^\s<>"'@]+@[^\s<>"']+/g, '<address>')
    .replace(/\+?\d[\d\s-]{8,}\d/g, '<number>')
    .slice(0, 300);
}

/**
 * POSTs to a provider's API. Unreachable, too slow or redirected (a redirect would carry the credentials elsewhere)
 * is a ChannelSendError that may be retried; any HTTP answer is returned for the adapter to read.
 */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number = PROVIDER_TIMEOUT_MS,
): Promise<ProviderAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    throw new ChannelSendError(`${provider} unreachable: ${reasonOf(error)}`, false);
  }
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status alone decides.
  }
  return { status: response.status, body };
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause: unknown = error.cause;
    if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
    return withoutAddresses(error.message);
  }
  return 'network error';
}
