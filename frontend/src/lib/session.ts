import { useSyncExternalStore } from 'react';

/** The signed-in session, kept in sessionStorage under the seeds' keys. */
export interface SessionUser {
  id: string;
  user_id: string;
  name: string;
  email: string | null;
  account_type: 'patient' | 'doctor' | 'admin' | 'user';
  role?: 'admin' | 'doctor' | 'user';
}

export interface Session {
  token: string;
  refreshToken: string | null;
  user: SessionUser;
  authProvider: 'google' | 'password' | 'phone';
}

const KEYS = { token: 'auth_token', user: 'user_info', provider: 'auth_provider', tab: 'active_tab', refresh: 'refresh_token' } as const;
const listeners = new Set<() => void>();
let cached: { raw: string | null; session: Session | null } = { raw: null, session: null };

function read(): Session | null {
  const raw = `${sessionStorage.getItem(KEYS.token)}|${sessionStorage.getItem(KEYS.user)}`;
  if (raw === cached.raw) return cached.session;
  const token = sessionStorage.getItem(KEYS.token);
  const user = sessionStorage.getItem(KEYS.user);
  let session: Session | null = null;
  if (token && user) {
    try {
      session = {
        token,
        refreshToken: sessionStorage.getItem(KEYS.refresh),
        user: JSON.parse(user) as SessionUser,
        authProvider: (sessionStorage.getItem(KEYS.provider) as Session['authProvider']) ?? 'google',
      };
    } catch {
      session = null;
    }
  }
  cached = { raw, session };
  return session;
}

const notify = () => listeners.forEach((l) => l());

let loggedOut = false;
let closed = false;

export const sessionStore = {
  get: read,
  /** True after the user logged out in this page's life: guards then send them to / (the seeds' logout target). */
  get loggedOut(): boolean {
    return loggedOut;
  },
  /**
   * True once the server has ended this session on the user's own request (their data erased, the account closed):
   * the refusals that follow (401s, the socket closed with an authentication code) are expected, not errors to show
   * over the page that tells them what happened.
   */
  get closedByUser(): boolean {
    return closed;
  },
  /** Set while the user's own request to close the session is on its way (and after it succeeded); unset if it failed. */
  setClosedByUser(value: boolean) {
    closed = value;
  },
  set(session: Session) {
    loggedOut = false;
    closed = false;
    sessionStorage.setItem(KEYS.token, session.token);
    sessionStorage.setItem(KEYS.user, JSON.stringify(session.user));
    sessionStorage.setItem(KEYS.provider, session.authProvider);
    if (session.refreshToken) sessionStorage.setItem(KEYS.refresh, session.refreshToken);
    notify();
  },
  /** Logout: clears the stored session and resets the active tab to home. */
  clear() {
    loggedOut = true;
    for (const key of [KEYS.token, KEYS.user, KEYS.provider, KEYS.refresh]) sessionStorage.removeItem(key);
    sessionStorage.setItem(KEYS.tab, 'home');
    notify();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): Session | null {
  // A page prerendered at build time (see prerender.tsx) is rendered signed out.
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, () => null);
}

/** Unspecified account types count as patients (seed: 'user' is a patient). */
export function isDoctor(user: SessionUser | undefined | null): boolean {
  return user?.account_type === 'doctor';
}
export function isAdmin(user: SessionUser | undefined | null): boolean {
  return user?.account_type === 'admin' || user?.role === 'admin';
}
export function homePathFor(user: SessionUser | undefined | null): string {
  if (isAdmin(user)) return '/institutions';
  if (isDoctor(user)) return '/doctor-home';
  return '/home';
}
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 2);
}
