/**
 * Where a person was going when they had to sign in, kept in this tab's session storage across the identity
 * provider's redirect: a protected page (RequireAuth's `from`) or a slot picked on a public doctor page, whose
 * doctor is then added to the patient's list.
 */
export interface PostLoginIntent {
  path: string;
  /** Add this doctor to the patient's list after signing in (a slot picked on the doctor's public page). */
  subscribeTo?: string;
}

const KEY = 'post_login_intent';

/** Only a path of this app: never another origin ('//evil', '/\\evil', 'https:'), never the callback itself. */
export function isSafeReturnPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.length <= 2000 &&
    /^\/(?![/\\])/.test(path) &&
    ![...path].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) &&
    !path.startsWith('/auth/callback')
  );
}

export const postLogin = {
  save(intent: PostLoginIntent | null | undefined): void {
    if (intent && isSafeReturnPath(intent.path)) sessionStorage.setItem(KEY, JSON.stringify(intent));
    else sessionStorage.removeItem(KEY);
  },
  /** The saved intent, once: reading it forgets it. */
  take(): PostLoginIntent | null {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as { path?: unknown; subscribeTo?: unknown };
      if (!isSafeReturnPath(value.path)) return null;
      return { path: value.path, ...(typeof value.subscribeTo === 'string' && value.subscribeTo ? { subscribeTo: value.subscribeTo } : {}) };
    } catch {
      return null;
    }
  },
};
