/**
 * A minimal browser for walking redirect-based flows with fetch: it keeps cookies per host and follows
 * redirects by hand, returning where it stopped.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    let jar = this.cookies.get(host);
    if (!jar) this.cookies.set(host, (jar = new Map()));
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(header) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set('Cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /** Follows redirects until a page answers, or until `stopAt` matches the next location. */
  async follow(url: string, init: RequestInit = {}, stopAt?: (location: string) => boolean): Promise<{ url: string; response: Response }> {
    let current = url;
    let response = await this.fetch(current, init);
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops += 1) {
      const next = new URL(response.headers.get('location')!, current).href;
      if (stopAt?.(next)) return { url: next, response };
      current = next;
      response = await this.fetch(current);
    }
    return { url: current, response };
  }
}

/** The first form of an HTML page: its action and its named fields' values. */
export function firstForm(html: string, base: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form in page: ${html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(-400)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[name] = value;
  }
  return { action: new URL(form[1]!.replace(/&amp;/g, '&'), base).href, fields };
}
