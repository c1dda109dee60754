import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { CONSENT_LANGUAGE_NAMES, CONSENT_LANGUAGES, CONSENT_NOTICE_HASHES, CONSENT_NOTICE_VERSION, consentNotice } from './consent-notice';
import { LANGUAGE_CODES, languageOf } from './languages';

describe('privacy notice', () => {
  it('records the hash of the exact text of its version (a changed text needs a new version and new hashes)', () => {
    for (const language of CONSENT_LANGUAGES) {
      const notice = consentNotice(language);
      assert.equal(notice.version, CONSENT_NOTICE_VERSION);
      assert.equal(createHash('sha256').update(notice.text, 'utf8').digest('hex'), CONSENT_NOTICE_HASHES[language], `${language}: text changed, so bump CONSENT_NOTICE_VERSION and the hash`);
    }
  });

  it('says what is collected, why, who sees it, how long and how to withdraw, in English and Hindi', () => {
    const en = consentNotice('en').text;
    for (const part of ['What we collect', 'Why', 'Who sees it', 'How long', 'How to withdraw', 'Data Protection Board']) assert.ok(en.includes(part), part);
    const hi = consentNotice('hi').text;
    for (const part of ['हम क्या एकत्र करते हैं', 'क्यों', 'कौन देखता है', 'कितने समय तक', 'सहमति वापस कैसे लें', 'डेटा संरक्षण बोर्ड']) assert.ok(hi.includes(part), part);
    assert.equal(en.split('\n\n').length, hi.split('\n\n').length, 'the same paragraphs');
  });

  it('is in each of the ten languages, named in itself, with the same five paragraphs (what, why, who, how long, how to withdraw) and the hash of its own text', () => {
    assert.deepEqual([...CONSENT_LANGUAGES], [...LANGUAGE_CODES]);
    const english = consentNotice('en');
    for (const language of CONSENT_LANGUAGES) {
      assert.equal(CONSENT_LANGUAGE_NAMES[language], languageOf(language).nativeName, `${language}: named as the language picker names it`);
      const notice = consentNotice(language);
      assert.equal(notice.language, language);
      assert.ok(notice.title.length > 0, `${language}: a title`);
      const paragraphs = notice.text.split('\n\n');
      assert.equal(paragraphs.length, 5, `${language}: five paragraphs`);
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
        // Written wholly in the language (product names are in Latin script, but the notice names none).
        assert.doesNotMatch(notice.title + notice.text, /[A-Za-z]/, `${language}: no English left in it`);
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
});
