import { useEffect, useState } from 'react';
import type { ApiRoutes } from '@telemed/contracts';
import { BLOG_IMAGE_PATH, blogImageId } from '@telemed/contracts/blog-constants';
import { call } from '../../lib/client';

/** What the server answers for a fresh grant (GET /blogs/images/{id}/grant). */
export type BlogImageGrant = ApiRoutes['getBlogImageGrant']['response'];

export interface GrantKeeperOptions {
  /** Asks the server for a fresh grant of one of the author's pictures. */
  fetchGrant(imageId: string): Promise<BlogImageGrant>;
  now?: () => number;
  /** A grant this close to its end is renewed. */
  renewBeforeMs?: number;
  /** How often the pictures' grants are looked at. */
  checkEveryMs?: number;
}

export const GRANT_RENEW_BEFORE_MS = 5 * 60 * 1000;
export const GRANT_CHECK_EVERY_MS = 60 * 1000;

/** One of our picture addresses as written in an `<img>` (relative, or absolute on this origin); null otherwise. */
function ourImageAddress(src: string | null): string | null {
  if (!src) return null;
  if (src.startsWith(BLOG_IMAGE_PATH)) return src;
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

/** When a granted address stops opening its picture (ms), or null for a bare one. */
function grantExpiry(address: string): number | null {
  const exp = new URLSearchParams(address.split('?')[1] ?? '').get('exp');
  return exp && /^\d{1,12}$/.test(exp) ? Number(exp) * 1000 : null;
}

/**
 * Keeps the author's pictures showing inside `container` for as long as it is open: an image's short-lived grant
 * (`?exp=&sig=`, about an hour) is renewed a few minutes before it runs out, and a picture that fails to load (a
 * grant already spent, after the laptop slept; a post archived meanwhile) is asked for again once with a fresh grant.
 * Only the `<img>` addresses change: the editor is never redrawn, so nothing the author has not saved is lost (the
 * server stores addresses bare whatever grant a saved one carries).
 */
export function keepBlogImageGrantsFresh(container: HTMLElement, options: GrantKeeperOptions): () => void {
  const now = options.now ?? Date.now;
  const renewBefore = options.renewBeforeMs ?? GRANT_RENEW_BEFORE_MS;
  const inFlight = new Map<string, Promise<BlogImageGrant | null>>();
  /** The address each picture was last given a fresh grant for after failing: it is not asked again for that one. */
  const retried = new WeakMap<HTMLImageElement, string>();
  let stopped = false;

  const images = () => Array.from(container.querySelectorAll('img'));

  const renew = (imageId: string) => {
    let pending = inFlight.get(imageId);
    if (!pending) {
      pending = options
        .fetchGrant(imageId)
        .catch(() => null)
        .finally(() => inFlight.delete(imageId));
      inFlight.set(imageId, pending);
    }
    return pending.then((grant) => {
      if (!grant || stopped) return;
      const fresh = grantExpiry(grant.url) ?? 0;
      // Every picture of this id whose address opens for less long (or failed) moves to the fresh one.
      for (const img of images()) {
        const address = ourImageAddress(img.getAttribute('src'));
        if (!address || blogImageId(address) !== imageId || address === grant.url) continue;
        const expiry = grantExpiry(address);
        if (expiry === null || expiry < fresh || retried.get(img) === address) img.setAttribute('src', grant.url);
      }
    });
  };

  const onError = (event: Event) => {
    const img = event.target;
    if (!(img instanceof HTMLImageElement)) return;
    const address = ourImageAddress(img.getAttribute('src'));
    const imageId = address ? blogImageId(address) : null;
    if (!address || !imageId || retried.get(img) === address) return;
    retried.set(img, address);
    void renew(imageId);
  };

  const check = () => {
    const due = new Set<string>();
    for (const img of images()) {
      const address = ourImageAddress(img.getAttribute('src'));
      const expiry = address ? grantExpiry(address) : null;
      const imageId = address ? blogImageId(address) : null;
      if (imageId && expiry !== null && expiry - now() <= renewBefore) due.add(imageId);
    }
    due.forEach((imageId) => void renew(imageId));
  };

  // An image's error does not bubble: it is caught on its way down.
  container.addEventListener('error', onError, true);
  const timer = setInterval(check, options.checkEveryMs ?? GRANT_CHECK_EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
    container.removeEventListener('error', onError, true);
  };
}

export const fetchBlogImageGrant = (imageId: string) => call('getBlogImageGrant', { params: { image_id: imageId } });

/** A ref for the element whose pictures' grants are kept fresh while it is shown (the hub: its editor, cover and cards). */
export function useFreshBlogImageGrants<T extends HTMLElement>(): (element: T | null) => void {
  const [element, setElement] = useState<T | null>(null);
  useEffect(() => (element ? keepBlogImageGrantsFresh(element, { fetchGrant: fetchBlogImageGrant }) : undefined), [element]);
  return setElement;
}
