import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { BlogHub } from './BlogHub';
import { keepBlogImageGrantsFresh, type BlogImageGrant } from './image-grants';

vi.mock('./BlogEditor', () => ({
  BlogEditor: forwardRef(function FakeEditor(_props: object, ref) {
    useImperativeHandle(ref, () => ({ save: async () => ({ blocks: [] }) }));
    return <div data-testid="blog-editor" />;
  }),
}));

const IMAGE = '0123456789abcdef';
const SIG = 'a'.repeat(43);
const at = (exp: number, sig = SIG) => `/api/v1/blogs/images/${IMAGE}?exp=${exp}&sig=${sig}`;
const T0 = Date.parse('2030-03-10T06:00:00Z');
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('keepBlogImageGrantsFresh', () => {
  function setup(srcs: string[]) {
    const container = document.createElement('div');
    for (const src of srcs) container.appendChild(Object.assign(document.createElement('img'), { alt: '' })).setAttribute('src', src);
    document.body.appendChild(container);
    const imgs = Array.from(container.querySelectorAll('img'));
    return { container, imgs };
  }

  it('a picture whose grant was spent (it failed to load) is asked for once again with a fresh grant', async () => {
    const { container, imgs } = setup([at(T0 / 1000 - 60), '/elsewhere.png']);
    const fresh = at(T0 / 1000 + 3600, 'b'.repeat(43));
    const fetchGrant = vi.fn(async (): Promise<BlogImageGrant> => ({ url: fresh, expires_at: new Date(T0 + 3600_000).toISOString() }));
    const stop = keepBlogImageGrantsFresh(container, { fetchGrant, now: () => T0 });
    imgs[0]!.dispatchEvent(new Event('error'));
    imgs[1]!.dispatchEvent(new Event('error'));
    await flush();
    expect(fetchGrant).toHaveBeenCalledTimes(1);
    expect(fetchGrant).toHaveBeenCalledWith(IMAGE);
    expect(imgs[0]!.getAttribute('src')).toBe(fresh);
    expect(imgs[1]!.getAttribute('src')).toBe('/elsewhere.png');
    // The fresh address failing too is not asked about in a loop.
    fetchGrant.mockClear();
    imgs[0]!.dispatchEvent(new Event('error'));
    await flush();
    imgs[0]!.dispatchEvent(new Event('error'));
    await flush();
    expect(fetchGrant).toHaveBeenCalledTimes(1);
    stop();
  });

  it('renews grants a few minutes before they run out, without waiting for a failure; stops when closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = T0;
    const { container, imgs } = setup([at(T0 / 1000 + 3600), at(T0 / 1000 + 3600)]);
    let minted = 0;
    const fetchGrant = vi.fn(async (): Promise<BlogImageGrant> => {
      minted += 1;
      const exp = Math.ceil(now / 1000) + 3600;
      return { url: at(exp, String(minted).repeat(43)), expires_at: new Date(exp * 1000).toISOString() };
    });
    const stop = keepBlogImageGrantsFresh(container, { fetchGrant, now: () => now, renewBeforeMs: 5 * 60_000, checkEveryMs: 60_000 });
    // 50 minutes in: nothing due yet.
    now = T0 + 50 * 60_000;
    vi.advanceTimersByTime(50 * 60_000);
    await flush();
    expect(fetchGrant).not.toHaveBeenCalled();
    // 56 minutes in (4 left): renewed once for both pictures of that id.
    now = T0 + 56 * 60_000;
    vi.advanceTimersByTime(6 * 60_000);
    await flush();
    expect(fetchGrant).toHaveBeenCalledTimes(1);
    expect(imgs.map((img) => img.getAttribute('src'))).toEqual([at(Math.ceil(now / 1000) + 3600, '1'.repeat(43)), at(Math.ceil(now / 1000) + 3600, '1'.repeat(43))]);
    // Hours later, with the same timer: still renewed before each end.
    for (let hour = 1; hour <= 3; hour++) {
      now += 60 * 60_000;
      vi.advanceTimersByTime(60 * 60_000);
      await flush();
    }
    expect(fetchGrant).toHaveBeenCalledTimes(4);
    stop();
    now += 2 * 60 * 60_000;
    vi.advanceTimersByTime(2 * 60 * 60_000);
    await flush();
    expect(fetchGrant).toHaveBeenCalledTimes(4);
  });
});

describe('the hub keeps its pictures showing past their grant', () => {
  const POST = '11111111-1111-4111-8111-111111111111';
  const stale = at(T0 / 1000 - 600);
  const fresh = at(Math.ceil(Date.now() / 1000) + 3600, 'f'.repeat(43));
  const summary = {
    id: POST,
    author_id: 'd1',
    author_name: 'Dr. A',
    author_photo_url: null,
    title: 'Fever care',
    description: 'x',
    excerpt: 'x',
    category: 'health-tips',
    tags: [],
    image_url: stale,
    date: '2030-03-10',
    status: 'draft',
    slug: null,
    publish_at: null,
    published_at: null,
    created_at: '2030-03-10T06:00:00Z',
    updated_at: '2030-03-10T06:00:00Z',
    views: 0,
    read_time: 1,
  };

  beforeEach(() => {
    sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
  });

  it("an open editor's cover picture gets a fresh grant when its old one fails, and the author's unsaved title stays", async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      if (url.startsWith('/api/v1/blogs/?')) return json(200, { items: [summary], total: 1, counts: { all: 1, published: 0, draft: 1, scheduled: 0, archived: 0 }, categories: [], stats: { total_views: 0, this_month: 0, avg_read_time: 1 } });
      if (url === `/api/v1/blogs/${POST}`) return json(200, { ...summary, content: { blocks: [] } });
      if (url === `/api/v1/blogs/images/${IMAGE}/grant`) return json(200, { url: fresh, expires_at: new Date(Date.now() + 3600_000).toISOString() });
      return json(404, { detail: 'Not found' });
    });
    renderAt('/', <BlogHub open onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    await screen.findByTestId('blog-editor');
    const title = screen.getByLabelText(/Title/);
    fireEvent.change(title, { target: { value: 'Fever care, rewritten and not saved' } });
    const cover = screen.getByAltText('Cover');
    expect(cover.getAttribute('src')).toBe(stale);
    fireEvent.error(cover);
    await waitFor(() => expect(cover.getAttribute('src')).toBe(fresh));
    expect(asked.filter((u) => u.endsWith('/grant'))).toEqual([`/api/v1/blogs/images/${IMAGE}/grant`]);
    expect(screen.getByLabelText(/Title/)).toHaveProperty('value', 'Fever care, rewritten and not saved');
    expect(screen.getByTestId('blog-editor')).toBeTruthy();
  });
});
