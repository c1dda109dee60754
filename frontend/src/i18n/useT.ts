import { useContext, type ReactNode } from 'react';
import { IntlContext, createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { PrimitiveType } from 'intl-messageformat';
import { ENGLISH_MESSAGES } from './catalogues';
import type enAuth from './catalogues/en/auth.json';
import type enCommon from './catalogues/en/common.json';
import type enShell from './catalogues/en/shell.json';
import type enAccount from './catalogues/en/account.json';
import type enAdmin from './catalogues/en/admin.json';
import type enBlog from './catalogues/en/blog.json';
import type enBookingRules from './catalogues/en/bookingRules.json';
import type enDoctor from './catalogues/en/doctor.json';
import type enErrors from './catalogues/en/errors.json';
import type enFormat from './catalogues/en/format.json';
import type enInstitution from './catalogues/en/institution.json';
import type enPatient from './catalogues/en/patient.json';
import type enPublic from './catalogues/en/public.json';
import type enRecords from './catalogues/en/records.json';
import type enVideo from './catalogues/en/video.json';
import type enWaitlist from './catalogues/en/waitlist.json';
import type enWallet from './catalogues/en/wallet.json';

/** Every message id: English's catalogues name them all, so an id no catalogue has does not compile. */
export type MessageId =
  | keyof typeof enAuth
  | keyof typeof enCommon
  | keyof typeof enShell
  | keyof typeof enAccount
  | keyof typeof enAdmin
  | keyof typeof enBlog
  | keyof typeof enBookingRules
  | keyof typeof enDoctor
  | keyof typeof enErrors
  | keyof typeof enFormat
  | keyof typeof enInstitution
  | keyof typeof enPatient
  | keyof typeof enPublic
  | keyof typeof enRecords
  | keyof typeof enVideo
  | keyof typeof enWaitlist
  | keyof typeof enWallet;

type RichValue = PrimitiveType | ReactNode | ((chunks: ReactNode[]) => ReactNode);

export interface Translate {
  /** A message as text, its `{placeholders}` filled (numbers and dates by the language's rules). */
  (id: MessageId, values?: Record<string, PrimitiveType>): string;
  /** A message with markup: `<link>…</link>` in it becomes what `values.link` makes of its words. */
  rich(id: MessageId, values: Record<string, RichValue>): ReactNode;
  intl: IntlShape;
}

// Outside an I18nProvider (the pages rendered at build time, a component tested alone): English.
const englishIntl = createIntl({ locale: 'en-IN', defaultLocale: 'en-IN', messages: ENGLISH_MESSAGES }, createIntlCache());

/** The screens' messages in the chosen language. */
export function useT(): Translate {
  const intl = useContext(IntlContext) ?? englishIntl;
  const t = ((id, values) => intl.formatMessage({ id }, values)) as Translate;
  t.rich = (id, values) => intl.formatMessage({ id }, values as Parameters<IntlShape['formatMessage']>[1]);
  t.intl = intl;
  return t;
}
