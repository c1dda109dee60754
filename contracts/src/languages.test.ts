import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGES, LANGUAGE_CODES, preferredLanguage } from './languages';

describe('languages', () => {
  it("are the seeds' ten", () => {
    assert.deepEqual([...LANGUAGE_CODES], ['en', 'hi', 'mr', 'gu', 'bn', 'ta', 'te', 'kn', 'ml', 'pa']);
    assert.deepEqual(LANGUAGES.map((l) => l.code), [...LANGUAGE_CODES]);
  });

  it("take the first of the browser's languages the product speaks, by its primary tag", () => {
    assert.equal(preferredLanguage(['fr-FR', 'ta-IN', 'hi']), 'ta');
    assert.equal(preferredLanguage(['HI']), 'hi');
    assert.equal(preferredLanguage(['bn_IN']), 'bn');
    assert.equal(preferredLanguage(['de', 'ja']), 'en');
    assert.equal(preferredLanguage([]), 'en');
  });
});
