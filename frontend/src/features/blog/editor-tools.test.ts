import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { API, BlockAPI } from '@editorjs/editorjs';
import { sessionStore } from '../../lib/session';
import { AppLinkTool, IMAGE_WIDTH_VARIABLE, SizedImageTool, blogEditorTools } from './editor-tools';

const doctor = { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' as const };

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The calls the tools make, with the bearer token each carried. */
function stubFetch() {
  const calls: Array<{ url: string; method: string; authorization: string | null; body: unknown }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    calls.push({ url, method: init.method ?? 'GET', authorization: headers.get('Authorization'), body: init.body });
    if (url.startsWith('/api/v1/blogs/link-meta?')) return answer(200, { success: 1, link: 'https://www.who.int/news', meta: { title: 'www.who.int', description: '' } });
    if (url === '/api/v1/blogs/images') return answer(201, { success: 1, file: { url: '/api/v1/blogs/images/abcdef12-0000?exp=1&sig=x', content_type: 'image/png', size: 3 } });
    return answer(404, { detail: 'Not found' });
  });
  return calls;
}

/** Just what the link tool touches of Editor.js's API. */
const editorApi = { i18n: { t: (text: string) => text }, notifier: { show: vi.fn() }, styles: { input: 'cdx-input' } } as unknown as API;

beforeEach(() => {
  sessionStore.set({ token: 'token-when-the-editor-opened', refreshToken: null, authProvider: 'google', user: doctor });
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe("the editor's tools use the session's token at the time of each call", () => {
  it('the link preview after the token was renewed sends the new token', async () => {
    const calls = stubFetch();
    const tools = blogEditorTools(() => {});
    const linkTool = new AppLinkTool({ data: {}, config: {}, api: editorApi, readOnly: false, block: {} as BlockAPI });
    linkTool.render();
    sessionStore.set({ token: 'renewed-token', refreshToken: null, authProvider: 'google', user: doctor });
    await linkTool.fetchLinkData('https://www.who.int/news');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/blogs/link-meta?url=https%3A%2F%2Fwww.who.int%2Fnews');
    expect(calls[0]!.authorization).toBe('Bearer renewed-token');
    expect(linkTool.save()).toMatchObject({ link: 'https://www.who.int/news', meta: { title: 'www.who.int' } });
    expect((tools.linkTool as { class: unknown }).class).toBe(AppLinkTool);
  });

  it('an image uploaded after the token was renewed sends the new token', async () => {
    const calls = stubFetch();
    const errors: string[] = [];
    const tools = blogEditorTools((message) => errors.push(message));
    const uploader = (tools.image as { config: { uploader: { uploadByFile: (file: File) => Promise<unknown> } } }).config.uploader;
    sessionStore.set({ token: 'renewed-token', refreshToken: null, authProvider: 'google', user: doctor });
    const answered = await uploader.uploadByFile(new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' }));
    expect(answered).toMatchObject({ success: 1, file: { url: expect.stringMatching(/^\/api\/v1\/blogs\/images\//) } });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.authorization).toBe('Bearer renewed-token');
    expect(calls[0]!.body).toBeInstanceOf(FormData);
    expect(errors).toEqual([]);
  });

  it("an upload the server refuses shows the server's detail", async () => {
    vi.stubGlobal('fetch', async () => answer(413, { detail: 'File size must be less than 5MB' }));
    const errors: string[] = [];
    const uploader = (blogEditorTools((message) => errors.push(message)).image as { config: { uploader: { uploadByFile: (file: File) => Promise<unknown> } } }).config.uploader;
    expect(await uploader.uploadByFile(new File([new Uint8Array([1])], 'big.png'))).toEqual({ success: 0 });
    expect(errors).toEqual(['File size must be less than 5MB']);
  });
});

describe("the image block's resize button (seed 001: 'Image resize cycles 25%, 50%, 75%, 100%, auto')", () => {
  const imageApi = { i18n: { t: (text: string) => text }, notifier: { show: vi.fn() }, styles: { block: 'cdx-block', input: 'cdx-input', button: 'cdx-button', loader: 'cdx-loader' } } as unknown as API;
  type Item = { title?: string; name?: string; onActivate?: () => void };
  const widthItem = (tool: SizedImageTool) => (tool.renderSettings() as Item[]).find((item) => item.name === 'width')!;

  it('cycles the widths from the menu, shows them in the editor and saves them in the block', () => {
    const tool = new SizedImageTool({ data: { file: { url: '/api/v1/blogs/images/abcdef12-0000' }, caption: '', withBorder: false, withBackground: false, stretched: false }, config: { endpoints: {} }, api: imageApi, readOnly: false, block: {} as BlockAPI });
    const wrapper = tool.render();
    expect(tool.save()).toMatchObject({ width: 'auto', file: { url: '/api/v1/blogs/images/abcdef12-0000' } });
    const seen: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const item = widthItem(tool);
      item.onActivate!();
      seen.push(`${item.title} -> ${tool.save().width} (${wrapper.style.getPropertyValue(IMAGE_WIDTH_VARIABLE)})`);
    }
    expect(seen).toEqual(['Size: auto -> 25% (25%)', 'Size: 25% -> 50% (50%)', 'Size: 50% -> 75% (75%)', 'Size: 75% -> 100% (100%)', 'Size: 100% -> auto (auto)']);
  });

  it('opens a saved block at its width', () => {
    const tool = new SizedImageTool({ data: { file: { url: '/api/v1/blogs/images/abcdef12-0000' }, caption: '', withBorder: false, withBackground: false, stretched: false, width: '50%' } as never, config: { endpoints: {} }, api: imageApi, readOnly: false, block: {} as BlockAPI });
    expect(tool.render().style.getPropertyValue(IMAGE_WIDTH_VARIABLE)).toBe('50%');
    expect(tool.save().width).toBe('50%');
    expect((blogEditorTools(() => {}).image as { class: unknown }).class).toBe(SizedImageTool);
  });
});
