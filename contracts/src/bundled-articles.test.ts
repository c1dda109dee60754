import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blocksText, blogContentSchema, blogPostViewSchema, blogSlug, readTimeMinutes } from './blog';
import { BUNDLED_ARTICLES, bundledArticleView, bundledArticlesOf, isBundledArticle, isBundledArticleSlug } from './bundled-articles';

describe('bundled articles (the sample profiles’ /blog/{slug} links)', () => {
  it('every article is a valid published post view, its content passing the posts’ own schema unchanged', () => {
    assert.ok(BUNDLED_ARTICLES.length === 5, 'five bundled articles, one per sample profile');
    for (const article of BUNDLED_ARTICLES) {
      const view = bundledArticleView(article.slug);
      assert.ok(view, `${article.slug}: has a view`);
      blogPostViewSchema.parse(view);
      assert.deepEqual(blogContentSchema.parse(view.content), view.content, `${article.slug}: the content needs no cleaning`);
      assert.equal(view.read_time, readTimeMinutes(blocksText(view.content.blocks)), `${article.slug}: read time by the seeds' rule`);
      assert.ok(isBundledArticle(view), `${article.slug}: known as bundled`);
      assert.equal(view.status, 'published', `${article.slug}: published`);
      assert.match(blocksText(view.content.blocks), /general information, not a diagnosis/, `${article.slug}: says it is general information`);
      assert.match(blocksText(view.content.blocks), /consult a doctor/, `${article.slug}: says to consult a doctor`);
    }
  });

  it('the Hindi title opens the fever article; the vaccination article names its source', () => {
    const fever = bundledArticleView('what-to-do-about-a-fever');
    assert.ok(fever && blocksText(fever.content.blocks).startsWith('बुखार में क्या करें'), 'the Hindi title first');
    const vaccines = bundledArticleView('vaccination-schedule-first-year');
    assert.ok(vaccines && /Universal Immunization Programme, Ministry of Health and Family Welfare/.test(blocksText(vaccines.content.blocks)), 'the UIP source named');
  });

  it('a real post’s slug can never be a bundled one, and an unknown slug is no article', () => {
    for (const article of BUNDLED_ARTICLES) {
      assert.doesNotMatch(article.slug, /-[0-9a-f]{8}$/, `${article.slug}: not the shape of a real post's slug`);
      const real = blogSlug(article.title, '0a1b2c3d-0000-4000-8000-000000000000');
      assert.notEqual(real, article.slug, `a real post titled "${article.title}" gets its own slug`);
      assert.equal(isBundledArticleSlug(real), false, `${real} is not bundled`);
      assert.equal(bundledArticleView(real), null, `${real} has no bundled view`);
    }
    assert.equal(bundledArticleView('no-such-article'), null, 'unknown slug');
    assert.equal(isBundledArticle({ id: '0a1b2c3d-0000-4000-8000-000000000000', slug: BUNDLED_ARTICLES[0]!.slug }), false, 'a real post is never taken for a bundled one');
    assert.equal(new Set(BUNDLED_ARTICLES.map((a) => a.slug)).size, BUNDLED_ARTICLES.length, 'slugs are unique');
    assert.deepEqual(bundledArticlesOf('dr-rohan-iyer').map((a) => a.slug), ['vaccination-schedule-first-year'], 'by author');
  });
});
