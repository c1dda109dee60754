/**
 * The privacy notice a patient agrees to before their first booking (Digital Personal Data Protection Act, 2023:
 * purpose-specific, itemised, how to withdraw, how to complain; in English and Hindi). The consent event records
 * the version and the SHA-256 of the exact text agreed to.
 *
 * Changing a word of a text means a new CONSENT_NOTICE_VERSION with the new hashes (the test recomputes them), and
 * every patient is asked again before their next booking. No I/O and no node:crypto here: the frontend may import it.
 */
export const CONSENT_LANGUAGES = ['en', 'hi'] as const;
export type ConsentLanguage = (typeof CONSENT_LANGUAGES)[number];
export const CONSENT_LANGUAGE_NAMES: Record<ConsentLanguage, string> = { en: 'English', hi: 'हिन्दी' };

export const CONSENT_NOTICE_VERSION = '2026-11-v1';

export interface ConsentNotice {
  version: string;
  language: ConsentLanguage;
  title: string;
  /** Paragraphs separated by a blank line. */
  text: string;
  /** SHA-256 of `text` (UTF-8), hex. */
  text_hash: string;
}

const TEXTS: Record<ConsentLanguage, { title: string; text: string }> = {
  en: {
    title: 'Privacy notice: booking consultations',
    text: [
      'What we collect: your name, e-mail address and phone number; the reason for visit you write with each request; your appointments (doctor, time and status); and what your doctor records about them, such as a reason for declining a request.',
      'Why: only to arrange consultations with the doctors you choose, to let them prepare for and hold the consultation with you, and to keep the record of each consultation that the law requires. We do not sell your data and do not use it for advertising.',
      'Who sees it: the doctor you book with; the clinic that doctor belongs to, for appointments made while they belong to it; and our operators, only when they must to keep the service running. Every change to your appointments is recorded with who made it.',
      'How long: while your account is open, and afterwards only as long as Indian law requires medical records to be kept; then it is erased.',
      'How to withdraw: open Profile and choose "Withdraw" next to this consent. Withdrawing is as easy as agreeing. Until you agree again you cannot request new appointments; what was recorded before is kept as the law requires. For questions or complaints, contact our support team; you may also complain to the Data Protection Board of India.',
    ].join('\n\n'),
  },
  hi: {
    title: 'गोपनीयता सूचना: परामर्श बुक करना',
    text: [
      'हम क्या एकत्र करते हैं: आपका नाम, ई-मेल पता और फ़ोन नंबर; हर अनुरोध के साथ आपके द्वारा लिखा गया मिलने का कारण; आपकी अपॉइंटमेंट (डॉक्टर, समय और स्थिति); और उनके बारे में आपके डॉक्टर द्वारा दर्ज जानकारी, जैसे किसी अनुरोध को अस्वीकार करने का कारण।',
      'क्यों: केवल आपके चुने हुए डॉक्टरों के साथ परामर्श तय करने, उन्हें आपके साथ परामर्श की तैयारी करने और परामर्श करने देने, और हर परामर्श का वह रिकॉर्ड रखने के लिए जो कानून के अनुसार ज़रूरी है। हम आपका डेटा न बेचते हैं और न ही विज्ञापन के लिए उपयोग करते हैं।',
      'कौन देखता है: वह डॉक्टर जिनसे आप अपॉइंटमेंट लेते हैं; उस डॉक्टर का क्लिनिक, उन अपॉइंटमेंट के लिए जो डॉक्टर के वहाँ रहते हुए बनीं; और हमारे ऑपरेटर, केवल तब जब सेवा चलाने के लिए ज़रूरी हो। आपकी अपॉइंटमेंट में हर बदलाव, उसे करने वाले के नाम के साथ, दर्ज किया जाता है।',
      'कितने समय तक: जब तक आपका खाता खुला है, और उसके बाद केवल उतने समय तक जितना भारतीय कानून चिकित्सा रिकॉर्ड रखने के लिए कहता है; फिर इसे मिटा दिया जाता है।',
      'सहमति वापस कैसे लें: प्रोफ़ाइल खोलें और इस सहमति के आगे "Withdraw" (वापस लें) चुनें। सहमति वापस लेना उतना ही आसान है जितना सहमति देना। दोबारा सहमति देने तक आप नई अपॉइंटमेंट का अनुरोध नहीं कर सकेंगे; पहले दर्ज जानकारी कानून के अनुसार रखी जाती है। प्रश्न या शिकायत के लिए हमारी सहायता टीम से संपर्क करें; आप भारत के डेटा संरक्षण बोर्ड में भी शिकायत कर सकते हैं।',
    ].join('\n\n'),
  },
};

/** SHA-256 of each text of the current version; the test recomputes them, so a changed text cannot keep its version. */
export const CONSENT_NOTICE_HASHES: Record<ConsentLanguage, string> = {
  en: '125700d0197e30bb868b5a39ffe41c8ebb19accb2667cfe05da0ccb7a942f687',
  hi: '9eb92ad3a93f649d0e22b8930f2ad2617f264e3c86e1b4ffa60290b15f2b02f2',
};

export function consentNotice(language: ConsentLanguage = 'en'): ConsentNotice {
  return { version: CONSENT_NOTICE_VERSION, language, ...TEXTS[language], text_hash: CONSENT_NOTICE_HASHES[language] };
}

export const CONSENT_TEXTS = {
  consentNeeded: 'Consent is needed before booking: read the privacy notice and agree to it (GET /api/v1/consents/notice, then POST /api/v1/users/me/consents)',
  notCurrentNotice: `This is not the current privacy notice; the current version is ${CONSENT_NOTICE_VERSION}`,
  noSuchConsent: 'You have not agreed to this version of the privacy notice',
  patientsOnly: 'Only patients give consent to the booking notice',
} as const;
