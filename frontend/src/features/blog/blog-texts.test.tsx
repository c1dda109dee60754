import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { BLOG_CATEGORIES, BLOG_DEFAULTS, BLOG_TABS, BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { useT, type MessageId } from '../../i18n/useT';
import { editorMessages } from './editor-i18n';
import { EMPTY_TAB, TAB_LABELS, categoryLabel, ideasNotice, shownExcerpt, shownTitle } from './labels';

// Outside a provider the screens speak English: the catalogue's English is what they showed before.
const english = () => renderHook(() => useT()).result.current;

describe("the blog catalogue's English is the contracts' texts (seed 001), so the two cannot drift", () => {
  it('the seeds\' messages the screens show', () => {
    const t = english();
    const same: Array<[MessageId, string]> = [
      ['blog.titleAndContentRequired', BLOG_TEXTS.titleAndContentRequired],
      ['blog.loginToPublish', BLOG_TEXTS.loginToPublish],
      ['blog.publishFailed', BLOG_TEXTS.publishFailed()],
      ['blog.imageTooLarge', BLOG_TEXTS.imageTooLarge],
      ['blog.imageUploadError', BLOG_TEXTS.imageUploadError],
      ['blog.deleteConfirm', BLOG_TEXTS.deleteConfirm],
      ['blog.postNotFound', BLOG_TEXTS.postNotFound],
      ['blog.publishAtRequired', BLOG_TEXTS.publishAtRequired],
      ['blog.postArchived', BLOG_TEXTS.postArchived],
      ['blog.postArchivedMessage', BLOG_TEXTS.postArchivedMessage],
      ['blog.postPublishedAgain', BLOG_TEXTS.postPublishedAgain],
      ['blog.postDeleted', BLOG_TEXTS.postDeleted],
      ['blog.postUnscheduled', BLOG_TEXTS.postUnscheduled],
      ['blog.changesSaved', BLOG_TEXTS.changesSaved],
      ['blog.publishedEditNotice', BLOG_TEXTS.publishedEditNotice],
      ['blog.viewPost', BLOG_TEXTS.viewPost],
      ['blog.useIdeaTitle', BLOG_TEXTS.useIdeaTitle],
      ['blog.useThisIdea', BLOG_TEXTS.useIdeaTitle.replace(/\?$/, '')],
      ['blog.useIdeaReplaces', BLOG_TEXTS.useIdeaReplaces],
      ['blog.bundledIdeasNotice', BLOG_TEXTS.bundledIdeasNotice],
      ['blog.modelFailedNotice', BLOG_TEXTS.modelFailedNotice],
      ['blog.untitledDraft', BLOG_DEFAULTS.title],
      ['blog.noExcerpt', BLOG_DEFAULTS.excerpt],
    ];
    for (const [id, text] of same) expect(t(id), id).toBe(text);
    for (const [tab, id] of Object.entries(EMPTY_TAB)) expect(t(id), tab).toBe(BLOG_TEXTS.emptyTab[tab as keyof typeof EMPTY_TAB]);
  });

  it('the texts with holes, filled alike', () => {
    const t = english();
    expect(t('blog.publishFailedDetail', { detail: 'Title is required' })).toBe(BLOG_TEXTS.publishFailed('Title is required'));
    expect(t('blog.emptySearch', { query: 'fever' })).toBe(BLOG_TEXTS.emptySearch('fever'));
    expect(t('blog.modelIdeasNotice', { model: 'llama-3' })).toBe(BLOG_TEXTS.modelIdeasNotice('llama-3'));
    for (const count of [0, 1, 2, 999, 1234, 123456]) expect(t('blog.views', { count })).toBe(BLOG_TEXTS.views(count));
  });

  it('the tabs, categories and defaults as the contracts name them', () => {
    const t = english();
    for (const tab of BLOG_TABS) expect(t(TAB_LABELS[tab.id])).toBe(tab.label);
    for (const category of BLOG_CATEGORIES) expect(categoryLabel(t, category.id)).toBe(category.name);
    expect(categoryLabel(t, 'no-such-category', 'From the server')).toBe('From the server');
    expect([shownTitle(t, ''), shownTitle(t, BLOG_DEFAULTS.title), shownTitle(t, 'Fever')]).toEqual([BLOG_DEFAULTS.title, BLOG_DEFAULTS.title, 'Fever']);
    expect([shownExcerpt(t, '', ''), shownExcerpt(t, BLOG_DEFAULTS.excerpt, 'd'), shownExcerpt(t, '', 'Description')]).toEqual([BLOG_DEFAULTS.excerpt, BLOG_DEFAULTS.excerpt, 'Description']);
  });

  it("the Writing Assistant's notices come back as the server sent them (a notice it does not know, as it is)", () => {
    const t = english();
    for (const notice of [BLOG_TEXTS.bundledIdeasNotice, BLOG_TEXTS.modelFailedNotice, BLOG_TEXTS.modelIdeasNotice('gpt-4o-mini'), 'Something else']) expect(ideasNotice(t, notice)).toBe(notice);
  });

  it("Editor.js's own words: in English each is the text Editor.js looks it up by", () => {
    // Each word as [its section's path, the English it is looked up by, what it says].
    const words = (section: object, path: string): Array<[string, string, string]> =>
      Object.entries(section).flatMap(([key, value]: [string, unknown]) =>
        typeof value === 'string' ? [[path, key, value]] : value && typeof value === 'object' ? words(value, `${path}${key}.`) : [],
      );
    const all = words(editorMessages(english()), '');
    expect(all.length).toBeGreaterThan(60);
    for (const [path, key, value] of all) expect(value, `${path}${key}`).toBe(key);
  });
});
