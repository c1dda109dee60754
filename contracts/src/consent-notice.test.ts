import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { CONSENT_LANGUAGE_NAMES, CONSENT_LANGUAGES, CONSENT_NOTICE_HASHES, CONSENT_NOTICE_VERSION, consentNotice } from './consent-notice';
import { LANGUAGE_CODES, languageOf } from './languages';
import { DEFAULT_MESSAGE_CHANNELS, MESSAGE_CHANNELS, QUIET_HOURS, QUIET_HOURS_URGENT_MINUTES } from './messaging';

/** What the notice may write in Latin script in every language: the channels, their providers and the STOP reply. */
const LATIN_NAMES = /\b(?:SMS|WhatsApp|STOP|DLT|Meta|Cloud API)\b/g;

describe('privacy notice', () => {
  it('records the hash of the exact text of its version (a changed text needs a new version and new hashes)', () => {
    for (const language of CONSENT_LANGUAGES) {
      const notice = consentNotice(language);
      assert.equal(notice.version, CONSENT_NOTICE_VERSION);
      assert.equal(createHash('sha256').update(notice.text, 'utf8').digest('hex'), CONSENT_NOTICE_HASHES[language], `${language}: text changed, so bump CONSENT_NOTICE_VERSION and the hash`);
    }
  });

  it('says what is collected, why, what messages are sent, who sees it, how long and how to withdraw, in English and Hindi', () => {
    const en = consentNotice('en').text;
    for (const part of ['What we collect', 'Why', 'Messages', 'Who sees it', 'How long', 'How to withdraw', 'Data Protection Board']) assert.ok(en.includes(part), part);
    const hi = consentNotice('hi').text;
    for (const part of ['हम क्या एकत्र करते हैं', 'क्यों', 'संदेश', 'कौन देखता है', 'कितने समय तक', 'सहमति वापस कैसे लें', 'डेटा संरक्षण बोर्ड']) assert.ok(hi.includes(part), part);
    assert.equal(en.split('\n\n').length, hi.split('\n\n').length, 'the same paragraphs');
  });

  it('is in each of the ten languages, named in itself, with the same six paragraphs (what, why, messages, who, how long, how to withdraw) and the hash of its own text', () => {
    assert.deepEqual([...CONSENT_LANGUAGES], [...LANGUAGE_CODES]);
    const english = consentNotice('en');
    for (const language of CONSENT_LANGUAGES) {
      assert.equal(CONSENT_LANGUAGE_NAMES[language], languageOf(language).nativeName, `${language}: named as the language picker names it`);
      const notice = consentNotice(language);
      assert.equal(notice.language, language);
      assert.ok(notice.title.length > 0, `${language}: a title`);
      const paragraphs = notice.text.split('\n\n');
      assert.equal(paragraphs.length, 6, `${language}: six paragraphs`);
      for (const [i, paragraph] of paragraphs.entries()) {
        assert.equal(paragraph, paragraph.trim(), `${language}: paragraph ${i + 1} has no stray blank`);
        const colon = paragraph.indexOf(':');
        assert.ok(colon > 0 && colon < 60, `${language}: paragraph ${i + 1} opens with its heading`);
      }
      assert.match(notice.text_hash, /^[0-9a-f]{64}$/);
      assert.equal(createHash('sha256').update(notice.text, 'utf8').digest('hex'), notice.text_hash, `${language}: the hash of its own text`);
      if (language !== 'en') {
        assert.notEqual(notice.text, english.text);
        assert.notEqual(notice.title, english.title);
        // Written wholly in the language, but for the names that stay in Latin script as the screens write them.
        assert.doesNotMatch(notice.title + notice.text.replace(LATIN_NAMES, ''), /[A-Za-z]/, `${language}: no English left in it`);
      }
    }
    assert.equal(new Set(CONSENT_LANGUAGES.map((l) => CONSENT_NOTICE_HASHES[l])).size, CONSENT_LANGUAGES.length, 'a text of its own for each language');
  });

  it('names the privacy notice in Hindi as the Hindi glossary does (निजता सूचना) and quotes the Hindi Withdraw button, not the English one', () => {
    const hi = consentNotice('hi');
    assert.ok(hi.title.startsWith('निजता सूचना'), hi.title);
    assert.ok(hi.text.includes('"वापस लें"'));
    assert.ok(!hi.text.includes('Withdraw'));
  });

  it('itemises what the product collects since the consultations and records were added, and the rights to a copy and erasure', () => {
    // The chat of a video consultation (issue 13), the reports a patient uploads and what doctors record (issue 14):
    // a notice that names only the booking's data does not tell what the consent covers (DPDP Act 2023, s. 5 and 6).
    const en = consentNotice('en').text;
    for (const part of ['chat messages', 'medical reports', 'consultation notes', 'prescriptions', 'medical records', 'download', 'erase your account', 'three years']) {
      assert.ok(en.includes(part), `the English notice names ${part}`);
    }
    const hi = consentNotice('hi').text;
    for (const part of ['चैट संदेश', 'मेडिकल रिपोर्ट', 'परामर्श नोट्स', 'पर्चे', 'मेडिकल रिकॉर्ड', 'डाउनलोड', 'खाता मिटा', 'तीन वर्ष']) {
      assert.ok(hi.includes(part), `the Hindi notice names ${part}`);
    }
  });

  it('names the channels messages go out on, how to stop them, what they carry and who delivers them (issue 34)', () => {
    // DPDP Act 2023, s. 5: the notice itemises the data and its purpose; the number and the text a provider receives are both.
    const [what, why, messages, ...rest] = consentNotice('en').text.split('\n\n');
    assert.ok(what!.startsWith('What we collect') && why!.startsWith('Why') && rest[0]!.startsWith('Who sees it'), 'the messages paragraph follows Why');
    assert.ok(messages!.startsWith('Messages: we send you messages by e-mail, SMS and WhatsApp'), messages);
    assert.deepEqual([...MESSAGE_CHANNELS].sort(), ['email', 'sms', 'whatsapp'], 'the notice names every channel');
    for (const part of ['"Messages" on Profile', 'at any time', 'replying STOP', 'sign-in codes', 'confirmed, not accepted or cancelled', 'a link to join', 'a prescription is ready', "your doctor's name and the time", 'never the reason for your visit, notes, diagnosis or medicines', 'never send advertising or marketing', 'DLT', 'Cloud API by Meta', 'only to deliver']) {
      assert.ok(messages!.includes(part), `the English notice says ${part}`);
    }
    // What the notice promises is what the messaging module does: a change there needs a new notice.
    assert.deepEqual(DEFAULT_MESSAGE_CHANNELS, { email: true, sms: true, whatsapp: false }, 'the defaults the notice states');
    assert.ok(messages!.includes('e-mail and SMS until you turn them off, WhatsApp only once you turn it on'));
    assert.equal(QUIET_HOURS_URGENT_MINUTES, 60, 'the notice says "within the hour"');
    const quiet = `Between ${QUIET_HOURS.startHour - 12} pm and ${QUIET_HOURS.endHour} am we send nothing but sign-in codes and a reminder of a consultation that starts within the hour`;
    assert.ok(messages!.includes(quiet), quiet);
    for (const language of CONSENT_LANGUAGES) {
      const paragraph = consentNotice(language).text.split('\n\n')[2]!;
      for (const name of ['SMS', 'WhatsApp', 'STOP', 'DLT', 'Meta', 'Cloud API', '9']) assert.ok(paragraph.includes(name), `${language}: the messages paragraph names ${name}`);
    }
    const hi = consentNotice('hi').text.split('\n\n')[2]!;
    for (const part of ['ईमेल, SMS और WhatsApp', 'प्रोफ़ाइल पर "संदेश"', 'साइन इन कोड', 'पर्चा तैयार', 'विज्ञापन', 'रात 9 बजे से सुबह 9 बजे तक']) assert.ok(hi.includes(part), `the Hindi notice says ${part}`);
  });
});
