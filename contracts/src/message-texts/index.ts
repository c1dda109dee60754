import type { LanguageCode } from '../languages';
import bn from './bn';
import en from './en';
import gu from './gu';
import hi from './hi';
import kn from './kn';
import ml from './ml';
import mr from './mr';
import pa from './pa';
import ta from './ta';
import te from './te';
import type { MessageTexts } from './types';

export type { MessageText, MessageTexts } from './types';

/** Every kind's text in every language the product speaks: a message goes out in its recipient's language. */
export const MESSAGE_TEXTS: Record<LanguageCode, MessageTexts> = { en, hi, mr, gu, bn, ta, te, kn, ml, pa };
