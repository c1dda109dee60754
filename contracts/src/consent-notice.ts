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

export const CONSENT_NOTICE_VERSION = '2026-11-v3';

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
      'What we collect: your name, e-mail address and phone number; the reason for visit you write with each request; your appointments (doctor, time and status); the chat messages of your video consultations; the medical reports and files you upload; and what your doctors record about you: consultation notes, prescriptions and prescription files, and reasons such as one for declining a request.',
      'Why: only to arrange consultations with the doctors you choose, to let them prepare for and hold the consultation with you by video, and to keep the record of each consultation that the law requires. We do not sell your data and do not use it for advertising.',
      'Who sees it: the doctor you book with, and once a doctor has confirmed a consultation with you, also your medical records (your reports, prescriptions and prescription files); the clinic that doctor belongs to, for appointments made while they belong to it, and those records while its doctors care for you; and our operators, only when they must to keep the service running. Every change to your appointments, and every time someone else reads your data, is recorded with who did it and why.',
      'How long: while your account is open. When you erase your account, your name, contact details, reasons for visit, reports and chat are erased at once; the notes, prescriptions and prescription files of your consultations are kept only as long as Indian law requires medical records to be kept (three years), then erased.',
      'How to withdraw: open Profile and choose "Withdraw" next to this consent. Withdrawing is as easy as agreeing. Until you agree again you cannot request new appointments or upload reports; what was recorded before is kept as the law requires. On Profile you can also download a copy of all your data, see who saw it, and erase your account. For questions or complaints, contact our support team; you may also complain to the Data Protection Board of India.',
    ].join('\n\n'),
  },
  hi: {
    title: 'गोपनीयता सूचना: परामर्श बुक करना',
    text: [
      'हम क्या एकत्र करते हैं: आपका नाम, ई-मेल पता और फ़ोन नंबर; हर अनुरोध के साथ आपके द्वारा लिखा गया मिलने का कारण; आपकी अपॉइंटमेंट (डॉक्टर, समय और स्थिति); आपके वीडियो परामर्श के चैट संदेश; आपके द्वारा अपलोड की गई मेडिकल रिपोर्ट और फ़ाइलें; और आपके डॉक्टरों द्वारा आपके बारे में दर्ज जानकारी: परामर्श नोट्स, पर्चे (प्रिस्क्रिप्शन) और उनकी फ़ाइलें, और कारण, जैसे किसी अनुरोध को अस्वीकार करने का कारण।',
      'क्यों: केवल आपके चुने हुए डॉक्टरों के साथ परामर्श तय करने, उन्हें आपके साथ परामर्श की तैयारी करने और वीडियो पर परामर्श करने देने, और हर परामर्श का वह रिकॉर्ड रखने के लिए जो कानून के अनुसार ज़रूरी है। हम आपका डेटा न बेचते हैं और न ही विज्ञापन के लिए उपयोग करते हैं।',
      'कौन देखता है: वह डॉक्टर जिनसे आप अपॉइंटमेंट लेते हैं, और जब कोई डॉक्टर आपके साथ परामर्श की पुष्टि कर दे, तो आपके मेडिकल रिकॉर्ड भी (आपकी रिपोर्ट, पर्चे और उनकी फ़ाइलें); उस डॉक्टर का क्लिनिक, उन अपॉइंटमेंट के लिए जो डॉक्टर के वहाँ रहते हुए बनीं, और वही रिकॉर्ड जब तक उसके डॉक्टर आपका इलाज करते हैं; और हमारे ऑपरेटर, केवल तब जब सेवा चलाने के लिए ज़रूरी हो। आपकी अपॉइंटमेंट में हर बदलाव, और हर बार जब कोई और आपका डेटा पढ़ता है, यह दर्ज किया जाता है कि किसने और क्यों।',
      'कितने समय तक: जब तक आपका खाता खुला है। जब आप अपना खाता मिटाते हैं, तो आपका नाम, संपर्क विवरण, मिलने के कारण, रिपोर्ट और चैट तुरंत मिटा दिए जाते हैं; आपके परामर्श के नोट्स, पर्चे और उनकी फ़ाइलें केवल उतने समय तक रखे जाते हैं जितना भारतीय कानून चिकित्सा रिकॉर्ड रखने के लिए कहता है (तीन वर्ष), फिर मिटा दिए जाते हैं।',
      'सहमति वापस कैसे लें: प्रोफ़ाइल खोलें और इस सहमति के आगे "Withdraw" (वापस लें) चुनें। सहमति वापस लेना उतना ही आसान है जितना सहमति देना। दोबारा सहमति देने तक आप नई अपॉइंटमेंट का अनुरोध नहीं कर सकेंगे और रिपोर्ट अपलोड नहीं कर सकेंगे; पहले दर्ज जानकारी कानून के अनुसार रखी जाती है। प्रोफ़ाइल पर आप अपने पूरे डेटा की प्रति डाउनलोड भी कर सकते हैं, देख सकते हैं कि इसे किसने देखा, और अपना खाता मिटा सकते हैं। प्रश्न या शिकायत के लिए हमारी सहायता टीम से संपर्क करें; आप भारत के डेटा संरक्षण बोर्ड में भी शिकायत कर सकते हैं।',
    ].join('\n\n'),
  },
};

/** SHA-256 of each text of the current version; the test recomputes them, so a changed text cannot keep its version. */
export const CONSENT_NOTICE_HASHES: Record<ConsentLanguage, string> = {
  en: 'a68e63940f00dae57298a84906431505a62905d9a892a1e23ad31012b14c6846',
  hi: '69dc978b9f9f8fe0e184a430ff87d3da9dc45e6269e100153bf6fd8cc229260d',
};

export function consentNotice(language: ConsentLanguage = 'en'): ConsentNotice {
  return { version: CONSENT_NOTICE_VERSION, language, ...TEXTS[language], text_hash: CONSENT_NOTICE_HASHES[language] };
}

export const CONSENT_TEXTS = {
  consentNeeded: 'Consent is needed before booking: read the privacy notice and agree to it (GET /api/v1/consents/notice, then POST /api/v1/users/me/consents)',
  consentNeededForReports:
    'Consent is needed before uploading reports: read the privacy notice and agree to it (GET /api/v1/consents/notice, then POST /api/v1/users/me/consents)',
  notCurrentNotice: `This is not the current privacy notice; the current version is ${CONSENT_NOTICE_VERSION}`,
  noSuchConsent: 'You have not agreed to this version of the privacy notice',
  /** To the doctor approving a request whose patient withdrew their consent after sending it. */
  patientWithdrew: 'The patient has withdrawn their consent to the privacy notice, so this request can no longer be approved',
  patientsOnly: 'Only patients give consent to the booking notice',
} as const;
