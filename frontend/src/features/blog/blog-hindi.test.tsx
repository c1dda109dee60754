import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { I18nProvider } from '../../i18n/I18nProvider';
import { useT } from '../../i18n/useT';
import { editorMessages } from './editor-i18n';
import { ideasNotice } from './labels';
import { BlogHub } from './BlogHub';

/** Editor.js does not run in jsdom: a stand-in with no blocks. */
vi.mock('./BlogEditor', () => ({
  BlogEditor: forwardRef(function FakeEditor(_props: object, ref) {
    useImperativeHandle(ref, () => ({ save: async () => ({ blocks: [] }) }));
    return <div data-testid="blog-editor" />;
  }),
}));

const scheduled = {
  id: '55555555-5555-4555-8555-555555555555',
  author_id: 'd1',
  author_name: 'Dr. A',
  author_photo_url: null,
  title: 'मानसून में बुखार',
  description: 'd',
  excerpt: 'No excerpt',
  category: 'nutrition',
  tags: [],
  image_url: null,
  date: '2030-03-01',
  status: 'scheduled',
  slug: null,
  publish_at: '2030-03-15T06:30:00Z',
  published_at: null,
  created_at: '',
  updated_at: '',
  views: 1,
  read_time: 3,
};
const list = {
  items: [scheduled],
  total: 1,
  counts: { all: 1, published: 0, draft: 0, scheduled: 1, archived: 0 },
  categories: [{ id: 'nutrition', name: 'Nutrition', count: 1 }],
  stats: { total_views: 123456, this_month: 1, avg_read_time: 2.5 },
};

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/v1/blogs/topic-ideas')) return json(200, { source: 'bundled', notice: BLOG_TEXTS.bundledIdeasNotice, ideas: [] });
    if (url.startsWith('/api/v1/blogs/?')) return json(200, list);
    return json(404, { detail: 'Not found' });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

describe('the Patient Education Hub in Hindi', () => {
  it('speaks Hindi: its heading, tabs, cards and figures, dates in Hindi with Western digits, counts grouped the Indian way', async () => {
    renderAt(
      '/',
      <I18nProvider language="hi">
        <BlogHub open onClose={() => {}} />
      </I18nProvider>,
    );
    const hub = await screen.findByRole('dialog', { name: 'मरीज़ शिक्षा हब' });
    expect(within(hub).getByRole('list', { name: 'ब्लॉग प्रबंधन' })).toBeTruthy();
    expect(within(hub).getByText('सभी पोस्ट')).toBeTruthy();
    const card = await within(hub).findByTestId('blog-card');
    const when = new Intl.DateTimeFormat('hi-IN-u-nu-latn', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(scheduled.publish_at));
    expect(when).toMatch(/^15 मार्च 2030/);
    expect(within(card).getByText(`${when} को प्रकाशित होगी`)).toBeTruthy();
    // The post's own title stays the doctor's; the product's words around it are Hindi.
    expect(within(card).getByText(scheduled.title)).toBeTruthy();
    expect(within(card).getByText('कोई सारांश नहीं')).toBeTruthy();
    expect(within(card).getByText('शेड्यूल की गई')).toBeTruthy();
    expect(within(card).getByText('पोषण')).toBeTruthy();
    expect(within(card).getByText('1 व्यू')).toBeTruthy();
    expect(within(card).getByText('3 मिनट में पढ़ें')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'शेड्यूल हटाएँ' })).toBeTruthy();
    const stats = within(hub).getByTestId('blog-stats');
    expect(within(stats).getByText('ब्लॉग के आँकड़े')).toBeTruthy();
    expect(within(stats).getByText('1,23,456')).toBeTruthy();
    expect(within(stats).getByText('2.5 मिनट')).toBeTruthy();
  });

  it("the Writing Assistant's notice from the server reads in Hindi", async () => {
    renderAt(
      '/',
      <I18nProvider language="hi">
        <BlogHub open onClose={() => {}} startWithNew />
      </I18nProvider>,
    );
    const hub = await screen.findByRole('dialog', { name: 'मरीज़ शिक्षा हब' });
    fireEvent.click(within(hub).getByRole('button', { name: 'AI चालू करें' }));
    expect(await within(hub).findByText('कोई लेखन मॉडल सेट नहीं है: ये पहले से दिए गए विषयों के आइडिया हैं, आपके लिए बनाए नहीं गए।')).toBeTruthy();
    expect(within(hub).getByLabelText(/शीर्षक/)).toBeTruthy();
  });

  it("Editor.js's menus and the model's notice in Hindi (the model's name kept as it came)", async () => {
    const { result } = renderHook(() => useT(), { wrapper: ({ children }) => <I18nProvider language="hi">{children}</I18nProvider> });
    await waitFor(() => expect(result.current('blog.editorAdd')).toBe('जोड़ें'));
    const messages = editorMessages(result.current);
    expect(messages.toolNames?.Heading).toBe('हेडिंग');
    expect(messages.tools).toMatchObject({ header: { 'Heading 2': 'हेडिंग 2' }, image: { 'Size: auto': 'साइज़: मूल', 'Size: 50%': 'साइज़: 50%' } });
    expect(ideasNotice(result.current, BLOG_TEXTS.modelIdeasNotice('llama-3'))).toBe(
      'एक लेखन मॉडल (llama-3) ने आपकी विशेषज्ञता और इस पोस्ट के शीर्षक व श्रेणी से ये सुझाए हैं: प्रकाशित करने से पहले हर तथ्य जाँच लें।',
    );
  });
});
