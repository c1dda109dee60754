import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { BlogHub } from './BlogHub';
import { BlogBlocks } from './BlogBlocks';
import { CampaignCard, SocialContent } from './SocialContent';

/** Editor.js does not run in jsdom: a stand-in whose save() answers the blocks the test sets. */
const editorBlocks = vi.hoisted(() => ({ blocks: [] as unknown[] }));
vi.mock('./BlogEditor', () => ({
  BlogEditor: forwardRef(function FakeEditor(_props: object, ref) {
    useImperativeHandle(ref, () => ({ save: async () => ({ blocks: editorBlocks.blocks }) }));
    return <div data-testid="blog-editor" />;
  }),
}));

const emptyList = {
  items: [],
  total: 0,
  counts: { all: 0, published: 0, draft: 0, scheduled: 0, archived: 0 },
  categories: [{ id: 'health-tips', name: 'Health Tips', count: 0 }],
  stats: { total_views: 0, this_month: 0, avg_read_time: 0 },
};

function stubApi(answers: { publish?: () => Response } = {}) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET' && url.startsWith('/api/v1/blogs/?')) return json(200, emptyList);
    if (method === 'POST' && url === '/api/v1/blogs/') return json(201, { id: '11111111-1111-4111-8111-111111111111' });
    if (method === 'POST' && url.endsWith('/schedule')) return json(200, { id: '11111111-1111-4111-8111-111111111111', status: 'scheduled', slug: null });
    if (method === 'POST' && url.endsWith('/publish')) return answers.publish?.() ?? json(200, { id: '11111111-1111-4111-8111-111111111111', status: 'published', slug: 'fever-11111111' });
    return json(404, { detail: 'Not found' });
  });
  return calls;
}

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
  editorBlocks.blocks = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the hub editor: save and publish', () => {
  it("Save Draft sends the seeds' defaults: 'Untitled Draft', 'No excerpt', health-tips", async () => {
    const calls = stubApi();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.click(screen.getByRole('button', { name: 'Save Draft' }));
    await screen.findByText('Draft saved');
    const created = calls.find((c) => c.method === 'POST' && c.url === '/api/v1/blogs/');
    expect(created?.body).toMatchObject({ title: 'Untitled Draft', excerpt: 'No excerpt', category: 'health-tips', content: { blocks: [] } });
    expect(calls.some((c) => c.url.endsWith('/publish'))).toBe(false);
  });

  it('Publish needs a title and content, then creates the post and publishes it, and the editor closes', async () => {
    const calls = stubApi();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.click(screen.getByTestId('publish-button'));
    expect(await screen.findByText(BLOG_TEXTS.titleAndContentRequired)).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);

    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Fever in children' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'fever, kids' } });
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'Give fluids.' } }];
    fireEvent.click(screen.getByTestId('publish-button'));
    await screen.findByText('Post published');
    const writes = calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/blogs/', 'POST /api/v1/blogs/11111111-1111-4111-8111-111111111111/publish']);
    expect(writes[0]!.body).toMatchObject({ title: 'Fever in children', tags: 'fever, kids', excerpt: null, content: { blocks: editorBlocks.blocks } });
    // The editor closed after publishing: the list is back.
    expect(await screen.findByText(BLOG_TEXTS.emptyTab.all)).toBeTruthy();
  });

  it('a refusal reads "Failed to publish blog: {detail}"', async () => {
    stubApi({ publish: () => json(422, { detail: BLOG_TEXTS.titleAndContentRequired }) });
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'T' } });
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'x' } }];
    fireEvent.click(screen.getByTestId('publish-button'));
    expect(await screen.findByText(BLOG_TEXTS.publishFailed(BLOG_TEXTS.titleAndContentRequired))).toBeTruthy();
  });

  it('Status Scheduled sends the time to /schedule', async () => {
    const calls = stubApi();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Later' } });
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'x' } }];
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Status/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Scheduled' }));
    fireEvent.change(screen.getByLabelText('Publish at'), { target: { value: '2030-01-01T10:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText('Post scheduled');
    const schedule = calls.find((c) => c.url.endsWith('/schedule'));
    expect(schedule?.body).toEqual({ publish_at: new Date('2030-01-01T10:00').toISOString() });
  });

  it('asks to log in before publishing without a session', async () => {
    stubApi();
    sessionStorage.clear();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'T' } });
    fireEvent.click(screen.getByTestId('publish-button'));
    expect(await screen.findByText(BLOG_TEXTS.loginToPublish)).toBeTruthy();
  });
});

describe('the hub list', () => {
  it('cards archive a published post, and Delete asks first, then sends the confirmation', async () => {
    const post = { id: '22222222-2222-4222-8222-222222222222', author_id: 'd1', author_name: 'Dr. A', author_photo_url: null, title: 'Fever', description: 'd', excerpt: 'Short', category: 'health-tips', tags: [], image_url: null, date: '2030-01-01', status: 'published', slug: 'fever-22222222', publish_at: null, published_at: '2030-01-01T00:00:00Z', created_at: '', updated_at: '', views: 3, read_time: 1 };
    const calls: Array<{ method: string; url: string }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url });
      if (method === 'GET') return json(200, { ...emptyList, items: [post], total: 1, counts: { ...emptyList.counts, all: 1, published: 1 } });
      return json(200, { id: post.id, status: method === 'DELETE' ? 'deleted' : 'archived' });
    });
    renderAt('/', <BlogHub open onClose={() => {}} />);
    const card = await screen.findByTestId('blog-card');
    expect(within(card).getByText('3 views')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Archive' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === `/api/v1/blogs/${post.id}/archive`)).toBe(true));
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete post' });
    expect(within(dialog).getByText(BLOG_TEXTS.deleteConfirm)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === `/api/v1/blogs/${post.id}?confirm=true`)).toBe(true));
  });
});

describe('what the hub tells a doctor (issue 16 walk-through)', () => {
  const published = { id: '33333333-3333-4333-8333-333333333333', author_id: 'd1', author_name: 'Dr. A', author_photo_url: null, title: 'Monsoon fever', description: 'd', excerpt: 'Short', category: 'health-tips', tags: [], image_url: null, date: '2030-01-01', status: 'published', slug: 'monsoon-fever-33333333', publish_at: null, published_at: '2030-01-01T00:00:00Z', created_at: '', updated_at: '', views: 1, read_time: 1 };
  function stubPosts(items: unknown[]) {
    const calls: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'GET' && url === `/api/v1/blogs/${published.id}`) return json(200, { ...published, content: { blocks: [{ type: 'paragraph', data: { text: 'Rest and fluids.' } }] } });
      if (method === 'GET') return json(200, { ...emptyList, items, total: items.length, counts: { ...emptyList.counts, all: items.length, published: items.length } });
      if (method === 'PUT') return json(200, { ...published });
      if (url.endsWith('/publish')) return json(200, { ...published });
      return json(200, { ...published, status: method === 'DELETE' ? 'deleted' : 'archived' });
    });
    return calls;
  }

  it('one view reads "1 view"; archive says the post left the public page and how to bring it back; delete says it is done', async () => {
    stubPosts([published]);
    renderAt('/', <BlogHub open onClose={() => {}} />);
    const card = await screen.findByTestId('blog-card');
    expect(within(card).getByText('1 view')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText(BLOG_TEXTS.postArchived)).toBeTruthy();
    expect(screen.getByText(BLOG_TEXTS.postArchivedMessage)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete post' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(BLOG_TEXTS.postDeleted)).toBeTruthy();
  });

  it("editing a published post offers Save changes (no Save Draft, no Status that would not apply) and its toast opens the public page", async () => {
    const calls = stubPosts([published]);
    const opened = vi.fn();
    vi.stubGlobal('open', opened);
    renderAt('/', <BlogHub open onClose={() => {}} />);
    fireEvent.click(within(await screen.findByTestId('blog-card')).getByRole('button', { name: 'Edit' }));
    await screen.findByTestId('blog-editor');
    expect(screen.getByTestId('published-edit-notice').textContent).toBe(BLOG_TEXTS.publishedEditNotice);
    expect(screen.queryByRole('button', { name: 'Save Draft' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Status/ })).toBeNull();
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'Rest, fluids, and see a doctor after three days.' } }];
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const toast = (await screen.findByText(BLOG_TEXTS.changesSaved)).closest('[data-testid="toast"]') as HTMLElement;
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`)).toEqual([`PUT /api/v1/blogs/${published.id}`, `POST /api/v1/blogs/${published.id}/publish`]);
    // The toasts sit beside the hub's modal dialog, which hides them from the accessibility tree (a mouse reaches them).
    fireEvent.click(within(toast).getByRole('button', { name: BLOG_TEXTS.viewPost, hidden: true }));
    expect(opened).toHaveBeenCalledWith(`/blog/${published.slug}`, '_blank', 'noopener');
  });

  it('Escape or a click beside the hub does not close it while a post is being written (the list closes as usual)', async () => {
    stubPosts([]);
    const onClose = vi.fn();
    renderAt('/', <BlogHub open onClose={onClose} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Half written' } });
    fireEvent.keyDown(screen.getByLabelText(/Title/), { key: 'Escape' });
    fireEvent.click(document.querySelector('.MuiBackdrop-root')!);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', 'Half written');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await screen.findByText(BLOG_TEXTS.emptyTab.all);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("the dashboard's recent posts open in the hub's editor, and one view reads '1 view' there too", async () => {
    const calls = stubPosts([published]);
    renderAt('/', <SocialContent />);
    const row = await screen.findByRole('button', { name: `Edit ${published.title}` });
    expect(within(row).getByText(/1 view ·/)).toBeTruthy();
    fireEvent.click(row);
    await screen.findByRole('dialog', { name: 'Patient Education Hub' });
    await screen.findByTestId('blog-editor');
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', published.title);
    expect(calls.some((c) => c.method === 'GET' && c.url === `/api/v1/blogs/${published.id}`)).toBe(true);
  });

  it("the campaign card says '1 view this month' for one view", async () => {
    vi.stubGlobal('fetch', async () => json(200, { ...emptyList, items: [published], total: 1, counts: { ...emptyList.counts, all: 1, published: 1 }, stats: { total_views: 1, this_month: 1, avg_read_time: 1 } }));
    renderAt('/', <CampaignCard />);
    expect(await within(await screen.findByTestId('campaign-card')).findByText(/published post · 1 view this month/)).toBeTruthy();
  });

  it('on a phone the tabs stay above the posts and the categories and figures go below them', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: /max-width/.test(query), media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }));
    stubPosts([published]);
    renderAt('/', <BlogHub open onClose={() => {}} />);
    const card = await screen.findByTestId('blog-card');
    const tabs = screen.getByRole('list', { name: 'Blog Management' });
    const categories = screen.getByRole('list', { name: 'Categories' });
    const following = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(following(tabs, card)).toBe(true);
    expect(following(card, categories)).toBe(true);
    expect(following(card, screen.getByTestId('blog-stats'))).toBe(true);
    expect(screen.getAllByRole('list', { name: 'Blog Management' })).toHaveLength(1);
  });
});

describe('the Writing Assistant', () => {
  it("asks for ideas with the post's title and category (nothing else of the post), shows whose ideas they are, and asks again for other ideas", async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.startsWith('/api/v1/blogs/topic-ideas')) {
        asked.push(url);
        return json(200, { source: 'model', notice: 'Suggested by a writing model (test-model)', ideas: [{ id: 'model-1', title: 'Salt and your heart', description: 'Why less salt helps.', content: 'Eat less salt.' }] });
      }
      if (url.startsWith('/api/v1/blogs/?')) return json(200, emptyList);
      return json(404, { detail: 'Not found' });
    });
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Blood pressure at home' } });
    fireEvent.change(screen.getByLabelText('Excerpt'), { target: { value: 'Never sent to the model' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enable AI' }));
    const assistant = screen.getByTestId('writing-assistant');
    await within(assistant).findByText('Salt and your heart');
    within(assistant).getByText('Suggested by a writing model (test-model)');
    expect(asked).toEqual(['/api/v1/blogs/topic-ideas?category=health-tips&title=Blood+pressure+at+home']);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Blood pressure, measured well' } });
    expect(asked).toHaveLength(1);
    fireEvent.click(within(assistant).getByRole('button', { name: 'Other ideas' }));
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBe('/api/v1/blogs/topic-ideas?category=health-tips&title=Blood+pressure%2C+measured+well');
  });
});

describe('taking a Writing Assistant idea', () => {
  const idea = { id: 'b-1', title: 'Handwashing saves lives', description: 'Five moments to wash.', content: 'Wash before eating.' };
  const post = { id: '44444444-4444-4444-8444-444444444444', author_id: 'd1', author_name: 'Dr. A', author_photo_url: null, title: 'My own draft', description: 'd', excerpt: 'Mine', category: 'health-tips', tags: [], image_url: null, date: '2030-01-01', status: 'draft', slug: null, publish_at: null, published_at: null, created_at: '', updated_at: '', views: 0, read_time: 1 };
  beforeEach(() => {
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.startsWith('/api/v1/blogs/topic-ideas')) return json(200, { source: 'bundled', notice: BLOG_TEXTS.bundledIdeasNotice, ideas: [idea] });
      if (url === `/api/v1/blogs/${post.id}`) return json(200, { ...post, content: { blocks: [{ type: 'paragraph', data: { text: 'My words' } }] } });
      if (url.startsWith('/api/v1/blogs/?')) return json(200, { ...emptyList, items: [post], total: 1 });
      return json(404, { detail: 'Not found' });
    });
  });
  const useIdea = async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Enable AI' }));
    fireEvent.click(await within(screen.getByTestId('writing-assistant')).findByRole('button', { name: 'Use this idea' }));
  };

  it('an empty new post takes it at once', async () => {
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    await useIdea();
    await vi.waitFor(() => expect(screen.getByLabelText(/Title/)).toHaveProperty('value', idea.title));
    expect(screen.queryByRole('dialog', { name: BLOG_TEXTS.useIdeaTitle })).toBeNull();
  });

  it('over what the doctor wrote, it asks first: Keep leaves the writing as it was', async () => {
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Half a post of my own' } });
    await useIdea();
    const ask = await screen.findByRole('dialog', { name: BLOG_TEXTS.useIdeaTitle });
    expect(within(ask).getByText(BLOG_TEXTS.useIdeaReplaces)).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: BLOG_TEXTS.useIdeaTitle })).toBeNull());
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', 'Half a post of my own');
  });

  it("a saved post's editor takes the idea once confirmed (it used to reopen the saved post and drop the idea and the edits)", async () => {
    renderAt('/', <BlogHub open onClose={() => {}} />);
    fireEvent.click(within(await screen.findByTestId('blog-card')).getByRole('button', { name: 'Edit' }));
    await screen.findByTestId('blog-editor');
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', post.title);
    await useIdea();
    const ask = await screen.findByRole('dialog', { name: BLOG_TEXTS.useIdeaTitle });
    fireEvent.click(within(ask).getByRole('button', { name: 'Use this idea' }));
    await vi.waitFor(() => expect(screen.getByLabelText(/Title/)).toHaveProperty('value', idea.title));
    expect(screen.getByLabelText('Excerpt')).toHaveProperty('value', idea.description);
  });
});

describe('the blocks on a page', () => {
  it('draws only allow-listed inline tags; scripts, handlers and javascript: links never become markup', () => {
    const hostile = 'A <b>bold</b> <script>window.__x=1</script><img src=x onerror="window.__x=2"><a href="javascript:alert(1)">bad</a> <a href="https://who.int">ok</a>';
    const { container } = renderAt(
      '/',
      <BlogBlocks
        content={{
          blocks: [
            { type: 'paragraph', data: { text: hostile } },
            { type: 'code', data: { code: '<script>shown</script>' } },
            { type: 'image', data: { file: { url: 'javascript:alert(1)' }, caption: '', withBorder: false, withBackground: false, stretched: false, width: 'auto' } },
            { type: 'embed', data: { service: 'youtube', source: 'https://evil.example/watch?v=dQw4w9WgXcQ', embed: 'javascript:alert(2)', caption: '' } },
          ],
        }}
      />,
    );
    const content = within(container).getByTestId('blog-content');
    expect(content.querySelectorAll('script, img, iframe, [onerror]').length).toBe(0);
    expect(content.querySelector('b')?.textContent).toBe('bold');
    const links = [...content.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['https://who.int']);
    expect(content.textContent).toContain('<script>shown</script>');
  });

  it('a checklist shows which items are done (not as plain bullets)', () => {
    const { container } = renderAt(
      '/',
      <BlogBlocks content={{ blocks: [{ type: 'list', data: { style: 'checklist', items: [{ content: 'Drink ORS', meta: { checked: true }, items: [] }, { content: 'Check temperature', meta: { checked: false }, items: [] }] } }] }} />,
    );
    const list = within(container).getByTestId('blog-content').querySelector('ul')!;
    expect(list.dataset.style).toBe('checklist');
    const items = [...list.querySelectorAll('li')];
    expect(items.map((li) => within(li).getByRole('img').getAttribute('aria-label'))).toEqual(['done', 'not done']);
    expect(items.map((li) => li.textContent)).toEqual(['☑Drink ORS', '☐Check temperature']);
  });

  it("shows each picture at the width its author chose in the editor's resize cycle; auto (or anything else) at its own size", () => {
    const image = (id: string, width: string) => ({ type: 'image' as const, data: { file: { url: `/api/v1/blogs/images/${id}` }, caption: '', withBorder: false, withBackground: false, stretched: false, width: width as 'auto' } });
    const { container } = renderAt('/', <BlogBlocks content={{ blocks: [image('aaaaaaaa-1', '25%'), image('aaaaaaaa-2', '75%'), image('aaaaaaaa-3', 'auto'), image('aaaaaaaa-4', '1px;position:fixed')] }} />);
    const pictures = [...within(container).getByTestId('blog-content').querySelectorAll('img')];
    expect(pictures.map((img) => img.style.width)).toEqual(['25%', '75%', '', '']);
    expect(pictures.map((img) => img.dataset.width)).toEqual(['25%', '75%', 'auto', 'auto']);
  });
});
