import type { LanguageCode } from '@telemed/contracts/languages';
import { call } from '../lib/client';
import { sessionStore } from '../lib/session';
import { languageChosenHere } from './I18nProvider';

/**
 * Right after signing in: the language kept on the account wins (it follows the person to any device); an account
 * that has none takes the one picked in this browser before signing in. A failure leaves the screens as they are.
 */
export async function settleAccountLanguage(setLanguage: (language: LanguageCode) => void): Promise<void> {
  try {
    const me = await call('getMe');
    if (me.language) return setLanguage(me.language);
    const picked = languageChosenHere();
    if (picked) await call('updateMe', { body: { language: picked } });
  } catch {
    // Offline or refused: the browser's choice holds for now; the next sign-in tries again.
  }
}

/** A language picked while signed in is kept on the account too. */
export function keepOnAccount(language: LanguageCode): void {
  if (!sessionStore.get()) return;
  void call('updateMe', { body: { language } }).catch(() => {
    // Kept in this browser anyway; the account keeps its earlier choice.
  });
}
