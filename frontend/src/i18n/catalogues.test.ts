import { describe, expect, it } from 'vitest';
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LANGUAGE_CODES } from '@telemed/contracts/languages';

// Under Vitest the catalogues arrive as text (the build compiles them).
const files = import.meta.glob<{ default: Record<string, string> }>('./catalogues/*/*.json', { eager: true });
const catalogue = (language: string, feature: string) => files[`./catalogues/${language}/${feature}.json`]?.default;
const features = [...new Set(Object.keys(files).map((path) => path.split('/')[3]!.replace(/\.json$/, '')))].sort();

/** What a message needs from its caller and gives its markup: its arguments (with their kinds) and tags. */
function shape(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument) into.add(`{${element.value}}`);
    if (element.type === TYPE.number) into.add(`{${element.value}, number}`);
    if (element.type === TYPE.date || element.type === TYPE.time) into.add(`{${element.value}, date}`);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(`{${element.value}, ${element.type === TYPE.plural ? 'plural' : 'select'}}`);
      for (const option of Object.values(element.options)) shape(option.value, into);
    }
    if (element.type === TYPE.tag) {
      into.add(`<${element.value}>`);
      shape(element.children, into);
    }
  }
  return into;
}

describe('language catalogues', () => {
  it('exist for every language and feature', () => {
    expect(features.length).toBeGreaterThan(0);
    for (const language of LANGUAGE_CODES) for (const feature of features) expect(catalogue(language, feature), `${language}/${feature}.json`).toBeDefined();
  });

  for (const feature of features) {
    it(`${feature}: every language has English's messages, no others, each with the same arguments and markup`, () => {
      const english = catalogue('en', feature)!;
      for (const id of Object.keys(english)) expect(id.startsWith(`${feature}.`), `${id} is named after its feature`).toBe(true);
      for (const language of LANGUAGE_CODES) {
        const messages = catalogue(language, feature)!;
        expect(Object.keys(messages).sort(), `${language}/${feature}.json`).toEqual(Object.keys(english).sort());
        for (const [id, message] of Object.entries(messages)) {
          expect(message.trim(), `${language} ${id} is not empty`).not.toBe('');
          expect([...shape(parse(message))].sort(), `${language} ${id}`).toEqual([...shape(parse(english[id]!))].sort());
        }
      }
    });
  }

  it("plural forms follow each language's CLDR rules: a message counting things covers every category its language has", () => {
    for (const language of LANGUAGE_CODES) {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const feature of features) {
        for (const [id, message] of Object.entries(catalogue(language, feature)!)) {
          const plurals = (function find(elements: MessageFormatElement[]): Array<Record<string, unknown>> {
            return elements.flatMap((e) => (e.type === TYPE.plural ? [e.options, ...Object.values(e.options).flatMap((o) => find(o.value))] : e.type === TYPE.tag ? find(e.children) : []));
          })(parse(message));
          for (const options of plurals) for (const category of categories) expect(Object.keys(options), `${language} ${id}: ${category}`).toContain(category === 'other' ? 'other' : category);
        }
      }
    }
  });
});
