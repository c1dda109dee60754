import type { LanguageCode } from './languages';

/**
 * A pack's receipt in a patient's language (issue 36), printed beside the English: its heading and labels. Typed per
 * language, so a language missing a word does not compile.
 */
export interface ReceiptLabels {
  receipt: string;
  date: string;
  item: string;
  /** `{n}` is the number of credits. */
  credits: string;
  amountPaid: string;
  paymentId: string;
}

type Translated = Exclude<LanguageCode, 'en'>;

export const RECEIPT_LABELS: Record<Translated, ReceiptLabels> = {
  hi: { receipt: 'रसीद', date: 'तारीख', item: 'विवरण', credits: '{n} क्रेडिट', amountPaid: 'भुगतान की गई राशि', paymentId: 'भुगतान आईडी' },
  bn: { receipt: 'রসিদ', date: 'তারিখ', item: 'বিবরণ', credits: '{n} ক্রেডিট', amountPaid: 'প্রদত্ত অর্থ', paymentId: 'পেমেন্ট আইডি' },
  mr: { receipt: 'पावती', date: 'तारीख', item: 'तपशील', credits: '{n} क्रेडिट', amountPaid: 'भरलेली रक्कम', paymentId: 'पेमेंट आयडी' },
  ta: { receipt: 'ரசீது', date: 'தேதி', item: 'விவரம்', credits: '{n} கிரெடிட்கள்', amountPaid: 'செலுத்திய தொகை', paymentId: 'பணம் செலுத்திய எண்' },
  te: { receipt: 'రసీదు', date: 'తేదీ', item: 'వివరాలు', credits: '{n} క్రెడిట్‌లు', amountPaid: 'చెల్లించిన మొత్తం', paymentId: 'చెల్లింపు ఐడి' },
  gu: { receipt: 'રસીદ', date: 'તારીખ', item: 'વિગત', credits: '{n} ક્રેડિટ', amountPaid: 'ચૂકવેલ રકમ', paymentId: 'ચુકવણી આઈડી' },
  kn: { receipt: 'ರಶೀದಿ', date: 'ದಿನಾಂಕ', item: 'ವಿವರ', credits: '{n} ಕ್ರೆಡಿಟ್‌ಗಳು', amountPaid: 'ಪಾವತಿಸಿದ ಮೊತ್ತ', paymentId: 'ಪಾವತಿ ಐಡಿ' },
  ml: { receipt: 'രസീത്', date: 'തീയതി', item: 'വിവരണം', credits: '{n} ക്രെഡിറ്റുകൾ', amountPaid: 'അടച്ച തുക', paymentId: 'പേയ്‌മെന്റ് ഐഡി' },
  pa: { receipt: 'ਰਸੀਦ', date: 'ਤਾਰੀਖ', item: 'ਵੇਰਵਾ', credits: '{n} ਕ੍ਰੈਡਿਟ', amountPaid: 'ਅਦਾ ਕੀਤੀ ਰਕਮ', paymentId: 'ਭੁਗਤਾਨ ਆਈਡੀ' },
};

/** The labels in a patient's language; none for English (the receipt is in English already). */
export function receiptLabels(language: LanguageCode | null | undefined): ReceiptLabels | null {
  return language && language !== 'en' ? RECEIPT_LABELS[language] : null;
}
