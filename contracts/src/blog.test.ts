import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withPlayerEmbeds, blocksText, blogContentSchema, blogFieldsSchema, blogImageWidth, blogSlug, defaultDescription, embedPlayerUrl, nextBlogImageWidth, readTimeMinutes, BLOG_IMAGE_WIDTHS, BLOG_TEXTS, type BlogImageWidth } from './blog';

const content = (blocks: unknown[]) => ({ time: 1, version: '2.31.0', blocks });

describe('blog content (Editor.js blocks)', () => {
  it('accepts every allowed block type', () => {
    const parsed = blogContentSchema.parse(
      content([
        { type: 'header', data: { text: 'Fever', level: 2 } },
        { type: 'paragraph', data: { text: 'Drink <b>water</b>' } },
        { type: 'list', data: { style: 'unordered', items: [{ content: 'one', items: [{ content: 'nested', items: [] }] }] } },
        { type: 'list', data: { style: 'ordered', items: ['old style'] } },
        { type: 'quote', data: { text: 'Rest', caption: 'WHO' } },
        { type: 'code', data: { code: '<script>stays text</script>' } },
        { type: 'delimiter', data: {} },
        { type: 'image', data: { file: { url: '/api/v1/blogs/images/0123456789abcdef' }, caption: 'x' } },
        { type: 'embed', data: { service: 'youtube', source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', embed: 'https://www.youtube.com/embed/dQw4w9WgXcQ' } },
        { type: 'linkTool', data: { link: 'https://who.int', meta: { title: 'WHO', image: { url: 'https://evil.example/x.png' } } } },
      ]),
    );
    assert.equal(parsed.blocks.length, 10);
    assert.equal((parsed.blocks[8]!.data as { embed: string }).embed, 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', "the player's address, worked out on the server");
    assert.deepEqual(parsed.blocks[9]!.data, { link: 'https://who.int', meta: { title: 'WHO' } }, 'link meta keeps title and description only');
  });

  it("keeps an image's width from the seeds' resize cycle (25%, 50%, 75%, 100%, auto) and nothing else; auto when left out", () => {
    const image = (data: object) => ({ type: 'image', data: { file: { url: '/api/v1/blogs/images/0123456789abcdef' }, ...data } });
    for (const width of BLOG_IMAGE_WIDTHS) assert.equal((blogContentSchema.parse(content([image({ width })])).blocks[0]!.data as { width: string }).width, width);
    assert.equal((blogContentSchema.parse(content([image({})])).blocks[0]!.data as { width: string }).width, 'auto');
    for (const width of ['60%', '100px', 'calc(100% + 1px)', '50% ; background:url(x)', 50, null]) assert.equal(blogContentSchema.safeParse(content([image({ width })])).success, false, String(width));
    const cycle: BlogImageWidth[] = [];
    let width: BlogImageWidth = 'auto';
    for (let i = 0; i < 6; i += 1) cycle.push((width = nextBlogImageWidth(width)));
    assert.deepEqual(cycle, ['25%', '50%', '75%', '100%', 'auto', '25%']);
    assert.equal(blogImageWidth('75%'), '75%');
    assert.equal(blogImageWidth(undefined), 'auto', 'a post saved before widths existed');
  });

  it('refuses other blocks, levels, hosts, image addresses and link schemes', () => {
    const refuse = (block: unknown, message?: string) => {
      const result = blogContentSchema.safeParse(content([block]));
      assert.equal(result.success, false, JSON.stringify(block));
      if (message) assert.ok(result.error!.issues.some((i) => i.message === message), JSON.stringify(result.error!.issues));
    };
    refuse({ type: 'raw', data: { html: '<script>alert(1)</script>' } }, BLOG_TEXTS.blockNotAllowed('raw'));
    refuse({ type: 'header', data: { text: 'x', level: 7 } });
    refuse({ type: 'embed', data: { service: 'youtube', source: 'https://evil.example/watch?v=dQw4w9WgXcQ' } }, BLOG_TEXTS.embedHostNotAllowed);
    refuse({ type: 'embed', data: { service: 'codepen', source: 'https://codepen.io/x' } });
    refuse({ type: 'image', data: { file: { url: 'javascript:alert(1)' } } }, BLOG_TEXTS.imageUrlNotAllowed);
    refuse({ type: 'image', data: { file: { url: 'https://evil.example/x.png' } } }, BLOG_TEXTS.imageUrlNotAllowed);
    refuse({ type: 'linkTool', data: { link: 'javascript:alert(1)' } }, BLOG_TEXTS.linkNotAllowed);
    refuse({ type: 'linkTool', data: { link: 'data:text/html,<script>' } }, BLOG_TEXTS.linkNotAllowed);
  });

  it('drops what it does not know: tunes, extra data, list metadata beyond its own', () => {
    const parsed = blogContentSchema.parse(
      content([
        { type: 'paragraph', data: { text: 'x', html: '<script>' }, tunes: { anything: '<img onerror=x>' } },
        { type: 'list', data: { style: 'checklist', meta: { start: 2, evil: 'x' }, items: [{ content: 'a', meta: { checked: true, evil: 'x' }, items: [] }] } },
      ]),
    );
    assert.deepEqual(parsed.blocks[0], { type: 'paragraph', data: { text: 'x' } });
    assert.deepEqual(parsed.blocks[1]!.data, { style: 'checklist', meta: { start: 2 }, items: [{ content: 'a', meta: { checked: true }, items: [] }] });
  });

  it('takes tags as a list or comma-separated text', () => {
    const fields = blogFieldsSchema.parse({ title: 'T', content: content([]), tags: ' fever, kids ,fever,' });
    assert.deepEqual(fields.tags, ['fever', 'kids']);
  });

  it('read time is the text length over 200, rounded up, at least 1 (seed 001 §9)', () => {
    assert.equal(readTimeMinutes(''), 1);
    assert.equal(readTimeMinutes('a'.repeat(200)), 1);
    assert.equal(readTimeMinutes('a'.repeat(201)), 2);
    const text = blocksText([
      { type: 'paragraph', data: { text: '<b>ab</b>&amp;c' } },
      { type: 'list', data: { style: 'ordered', items: [{ content: 'x', items: [{ content: 'y', items: [] }] }] } },
    ]);
    assert.equal(text, 'ab&c\nx\ny');
  });

  it('describes a post by its excerpt, or the first 100 characters of its text plus an ellipsis', () => {
    assert.equal(defaultDescription('Short', 'long text'), 'Short');
    assert.equal(defaultDescription('No excerpt', 'a'.repeat(150)), 'a'.repeat(100) + '...');
    assert.equal(defaultDescription(null, 'brief'), 'brief');
  });

  it('slugs keep letters of any script and end with the id', () => {
    assert.equal(blogSlug('Fever in Children: What to Do?', '1234abcd-0000-4000-8000-000000000000'), 'fever-in-children-what-to-do-1234abcd');
    assert.equal(blogSlug('बुखार में क्या करें', 'abcd1234-0000'), 'बुखार-में-क्या-करें-abcd1234');
    assert.equal(blogSlug('!!!', 'abcd1234'), 'post-abcd1234');
  });

  it('frames only the allowed players', () => {
    assert.equal(embedPlayerUrl('youtube', 'https://youtu.be/dQw4w9WgXcQ'), 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    assert.equal(embedPlayerUrl('vimeo', 'https://vimeo.com/76979871'), 'https://player.vimeo.com/video/76979871');
    assert.equal(embedPlayerUrl('youtube', 'http://www.youtube.com/watch?v=dQw4w9WgXcQ'), null);
    assert.equal(embedPlayerUrl('youtube', 'https://www.youtube.com/watch?v="><script>'), null);
  });
});

describe('a video block frames only its service\'s player', () => {
  it("never keeps a client's embed address: javascript:, another host or another video", () => {
    for (const embed of ['javascript:alert(document.domain)', 'https://evil.example/embed/x', 'https://www.youtube-nocookie.com/embed/OTHERVIDEO1', 'data:text/html,<script>alert(1)</script>']) {
      const parsed = blogContentSchema.parse(content([{ type: 'embed', data: { service: 'vimeo', source: 'https://vimeo.com/76979871', embed } }]));
      assert.equal((parsed.blocks[0]!.data as { embed: string }).embed, 'https://player.vimeo.com/video/76979871', embed);
    }
  });

  it('corrects what a post stored before the check (its events are kept as written)', () => {
    const stored = { blocks: [{ id: 'a', type: 'embed' as const, data: { service: 'youtube' as const, source: 'https://youtu.be/dQw4w9WgXcQ', embed: 'javascript:alert(1)', caption: '' } }] };
    assert.equal((withPlayerEmbeds(stored).blocks[0]!.data as { embed: string }).embed, 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    const plain = { blocks: [] };
    assert.equal(withPlayerEmbeds(plain), plain, 'content without a video is returned as it is');
  });
});
