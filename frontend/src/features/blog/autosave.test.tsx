import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { elapse, useFakeClock } from '../../test/clock';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { UNSAVED_CHANGES_QUESTION } from '../../lib/unsavedChanges';
import { BlogHub } from './BlogHub';
import { AUTOSAVE_DELAY_MS, AUTOSAVE_TEXTS } from './autosave';
import { scheduledInstant } from './editorFields';

/** Editor.js does not run in jsdom: a stand-in whose save() answers the blocks the test sets. */
const editorBlocks = vi.hoisted(() => ({ blocks: [] as unknown[] }));
vi.mock('./BlogEditor', () => ({
  BlogEditor: forwardRef(function FakeEditor(_props: object, ref) {
    useImperativeHandle(ref, () => ({ save: async () => ({ blocks: editorBlocks.blocks }) }));
    return <div data-testid="blog-editor" />;
  }),
}));

const NEW_ID = '33333333-3333-4333-8333-333333333333';
const published = {
  id: '44444444-4444-4444-8444-444444444444', author_id: 'd1', author_name: 'Dr. A', author_photo_url: null, title: 'Monsoon fevers', description: 'd', excerpt: 'Short',
  category: 'health-tips', tags: [], image_url: null, date: '2030-01-01', status: 'published', slug: 'monsoon-44444444', publish_at: null, published_at: '2030-01-01T00:00:00Z',
  created_at: '', updated_at: '', views: 0, read_time: 1,
};

/** The blog API: drafts are kept, so the Drafts tab lists what was saved. */
function server() {
  const calls: Array<{ method: string; url: string; body: { title?: string } | undefined }> = [];
  const drafts = new Map<string, { title: string }>();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as { title?: string }) : undefined;
    calls.push({ method, url, body });
    if (method === 'GET' && url === `/api/v1/blogs/${published.id}`) return json(200, { ...published, content: { blocks: [{ type: 'paragraph', data: { text: 'Rest.' } }] } });
    if (method === 'GET' && url.startsWith('/api/v1/blogs/?')) {
      const tab = new URLSearchParams(url.split('?')[1]).get('status');
      const items = [
        ...(tab === 'draft' || tab === 'all' ? [...drafts].map(([id, d]) => ({ ...published, id, title: d.title, status: 'draft', slug: null })) : []),
        ...(tab === 'published' || tab === 'all' ? [published] : []),
      ];
      const counts = { all: drafts.size + 1, published: 1, draft: drafts.size, scheduled: 0, archived: 0 };
      return json(200, { items, total: items.length, counts, categories: [{ id: 'health-tips', name: 'Health Tips', count: 0 }], stats: { total_views: 0, this_month: 0, avg_read_time: 0 } });
    }
    if (method === 'POST' && url === '/api/v1/blogs/') {
      drafts.set(NEW_ID, { title: body?.title ?? '' });
      return json(201, { id: NEW_ID });
    }
    if (method === 'PUT' && url === `/api/v1/blogs/${NEW_ID}`) {
      drafts.set(NEW_ID, { title: body?.title ?? '' });
      return json(200, { id: NEW_ID, status: 'draft', slug: null });
    }
    if (method === 'POST' && url === `/api/v1/blogs/${NEW_ID}/publish`) return json(200, { id: NEW_ID, status: 'published', slug: 'new-33333333' });
    return json(404, { detail: 'Not found' });
  });
  const writes = () => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url}`);
  return { calls, writes };
}

const status = () => screen.getByTestId('autosave-status').textContent;

beforeEach(() => {
  // The drafts' 2 s debounce is skipped with elapse, not waited for.
  useFakeClock();
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
  editorBlocks.blocks = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("a doctor's draft saves itself, and unsaved writing is never dropped without asking", () => {
  it('a new post saves itself as the doctor writes (created once, then updated), saying Saving… then Saved', async () => {
    const { writes, calls } = server();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    expect(status()).toBe('');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Dengue at home' } });
    expect(status()).toBe(AUTOSAVE_TEXTS.saving);
    await elapse(AUTOSAVE_DELAY_MS);
    await waitFor(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    expect(writes()).toEqual(['POST /api/v1/blogs/']);
    expect(calls.find((c) => c.method === 'POST')?.body?.title).toBe('Dengue at home');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Dengue at home: what to do' } });
    await elapse(AUTOSAVE_DELAY_MS);
    await waitFor(() => expect(writes()).toEqual(['POST /api/v1/blogs/', `PUT /api/v1/blogs/${NEW_ID}`]));
    await waitFor(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    // Publishing afterwards publishes that same post: no second one.
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'Empty standing water.' } }];
    fireEvent.click(screen.getByTestId('publish-button'));
    await screen.findByText('Post published');
    expect(writes()).toEqual(['POST /api/v1/blogs/', `PUT /api/v1/blogs/${NEW_ID}`, `PUT /api/v1/blogs/${NEW_ID}`, `POST /api/v1/blogs/${NEW_ID}/publish`]);
  });

  it('New Blog Post, type, Drafts at once: the writing is saved there (it used to be thrown away)', async () => {
    const { writes } = server();
    renderAt('/', <BlogHub open onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'New Blog Post' }));
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Heat stroke in May' } });
    fireEvent.click(screen.getByTestId('tab-draft'));
    expect(await screen.findByText('Heat stroke in May')).toBeTruthy();
    expect(writes()).toEqual(['POST /api/v1/blogs/']);
    expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull();
  });

  it("a published post's unsaved changes (it does not save itself) ask before another tab; Keep editing keeps them, Discard goes", async () => {
    const { writes } = server();
    renderAt('/', <BlogHub open onClose={() => {}} startWithPost={published.id} />);
    const title = (await screen.findByLabelText(/Title/)) as HTMLInputElement;
    await waitFor(() => expect(title.value).toBe(published.title));
    fireEvent.change(title, { target: { value: 'Monsoon fevers: when to worry' } });
    expect(status()).toBe(AUTOSAVE_TEXTS.unsaved);
    fireEvent.click(screen.getByTestId('tab-draft'));
    fireEvent.click(await screen.findByRole('button', { name: UNSAVED_CHANGES_QUESTION.cancelLabel }));
    await waitFor(() => expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull());
    expect((screen.getByLabelText(/Title/) as HTMLInputElement).value).toBe('Monsoon fevers: when to worry');
    // Closing the hub asks too.
    fireEvent.click(screen.getByRole('button', { name: 'Close', hidden: true }));
    fireEvent.click(await screen.findByRole('button', { name: UNSAVED_CHANGES_QUESTION.cancelLabel }));
    await waitFor(() => expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull());
    fireEvent.click(screen.getByTestId('tab-draft'));
    fireEvent.click(await screen.findByRole('button', { name: UNSAVED_CHANGES_QUESTION.confirmLabel }));
    await waitFor(() => expect(screen.queryByLabelText(/Title/)).toBeNull());
    expect(writes()).toEqual([]);
  });

  it('the browser asks before the tab closes while writing is unsaved, and not once it is saved', async () => {
    server();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    const closing = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(closing()).toBe(false);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Typhoid' } });
    expect(closing()).toBe(true);
    await elapse(AUTOSAVE_DELAY_MS);
    await waitFor(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    expect(closing()).toBe(false);
  });
});

describe('scheduling without a time', () => {
  it('Schedule with an empty Publish at says so on the field, sends nothing, and the draft goes on saving itself', async () => {
    const { calls, writes } = server();
    renderAt('/', <BlogHub open onClose={() => {}} startWithNew />);
    await screen.findByTestId('blog-editor');
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Monsoon diet' } });
    await elapse(AUTOSAVE_DELAY_MS);
    await waitFor(() => expect(status()).toBe(AUTOSAVE_TEXTS.saved));
    editorBlocks.blocks = [{ type: 'paragraph', data: { text: 'Boil the water.' } }];
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Status/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Scheduled' }));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    // The message is the Publish at field's own (its description), and the field is marked invalid.
    const field = screen.getByLabelText('Publish at');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const description = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(BLOG_TEXTS.publishAtRequired);
    expect(screen.queryByTestId('blog-editor-error')).toBeNull();
    expect(writes().filter((w) => w.endsWith('/schedule') || w.endsWith('/publish'))).toEqual([]);
    // The draft still saves itself.
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Monsoon diet for children' } });
    await elapse(AUTOSAVE_DELAY_MS);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.body?.title === 'Monsoon diet for children')).toBe(true));
    // Choosing a time takes the message away.
    fireEvent.change(field, { target: { value: '2030-01-01T10:00' } });
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText(BLOG_TEXTS.publishAtRequired)).toBeNull();
  });

  it('an empty or unreadable Publish at is no instant; a filled one is the browser-time instant', () => {
    expect(scheduledInstant('')).toBeNull();
    expect(scheduledInstant('not a time')).toBeNull();
    expect(scheduledInstant('2030-01-01T10:00')).toBe(new Date('2030-01-01T10:00').toISOString());
  });
});
