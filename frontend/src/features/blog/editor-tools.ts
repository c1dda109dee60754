import type { API, BlockToolConstructable, ToolConstructable, ToolSettings } from '@editorjs/editorjs';
import type { TunesMenuConfig } from '@editorjs/editorjs/types/tools';
import Header from '@editorjs/header';
import List from '@editorjs/list';
import Quote from '@editorjs/quote';
import Code from '@editorjs/code';
import LinkTool from '@editorjs/link';
import ImageTool from '@editorjs/image';
import Embed from '@editorjs/embed';
import Delimiter from '@editorjs/delimiter';
import Marker from '@editorjs/marker';
import InlineCode from '@editorjs/inline-code';
import Underline from '@editorjs/underline';
import { BLOG_TEXTS, blogImageWidth, nextBlogImageWidth, type BlogImageWidth } from '@telemed/contracts/blog-constants';
import { call } from '../../lib/client';
import { uploadBlogImage } from './api';

/**
 * Editor.js's link tool, asking for its preview through the app's API client instead of with headers fixed in its
 * configuration when the editor was made: the token sent is the session's when the link is pasted (a renewed one too).
 */
export class AppLinkTool extends LinkTool {
  override async fetchLinkData(url: string): Promise<void> {
    this.showProgress();
    this.data = { link: url };
    try {
      this.onFetch(await call('getBlogLinkMeta', { query: { url } }));
    } catch {
      this.fetchingFailed(this.api.i18n.t("Couldn't fetch the link data"));
    }
  }
}

const RESIZE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M15 4h5v5M9 20H4v-5M20 4l-6 6M4 20l6-6"/></svg>';

/** The CSS variable the editor's stylesheet sets an image block's picture width from. */
export const IMAGE_WIDTH_VARIABLE = '--blog-image-width';

/**
 * Editor.js's image tool with the seeds' resize button: a setting in the block's menu ('Size: auto') that moves the
 * picture through 25%, 50%, 75%, 100% and auto, shown at once in the editor and saved as the block's `width`.
 */
export class SizedImageTool extends ImageTool {
  private width: BlogImageWidth;
  private wrapper: HTMLElement | null = null;
  private readonly i18n: API['i18n'];

  constructor(options: ConstructorParameters<typeof ImageTool>[0]) {
    super(options);
    this.width = blogImageWidth((options.data as { width?: unknown } | undefined)?.width);
    this.i18n = options.api.i18n;
  }

  override render(): HTMLDivElement {
    const wrapper = super.render();
    this.wrapper = wrapper;
    this.showWidth();
    return wrapper;
  }

  override save(): ReturnType<ImageTool['save']> & { width: BlogImageWidth } {
    return { ...super.save(), width: this.width };
  }

  override renderSettings(): TunesMenuConfig {
    const own = super.renderSettings();
    return [
      ...(Array.isArray(own) ? own : [own]),
      {
        icon: RESIZE_ICON,
        title: this.i18n.t(`Size: ${this.width}`),
        name: 'width',
        closeOnActivate: true,
        onActivate: () => {
          this.width = nextBlogImageWidth(this.width);
          this.showWidth();
        },
      },
    ];
  }

  private showWidth(): void {
    this.wrapper?.style.setProperty(IMAGE_WIDTH_VARIABLE, this.width);
    if (this.wrapper) this.wrapper.dataset.width = this.width;
  }
}

/** Why an upload failed, as the editor's error says it: the Error's message (the server's detail, or the seeds' text). */
const uploadMessage = (error: unknown) => (error instanceof Error ? error.message : BLOG_TEXTS.imageUploadError);

/**
 * The editor's tools (the seeds' toolbar as Editor.js tools). Every call a tool makes to the server goes through the
 * app's API client at the time it is made, so none keeps the token the editor was opened with. `describeUploadError`
 * says why a picture did not upload (the editor gives it the reader's language).
 */
export function blogEditorTools(onError: (message: string) => void, describeUploadError: (error: unknown) => string = uploadMessage): Record<string, ToolConstructable | ToolSettings> {
  return {
    header: { class: Header as unknown as ToolConstructable, inlineToolbar: true, config: { levels: [1, 2, 3, 4, 5, 6], defaultLevel: 2 } } as ToolSettings,
    list: { class: List as unknown as ToolConstructable, inlineToolbar: true },
    quote: { class: Quote as unknown as ToolConstructable, inlineToolbar: true },
    code: Code as unknown as ToolConstructable,
    delimiter: Delimiter as unknown as ToolConstructable,
    linkTool: { class: AppLinkTool as unknown as BlockToolConstructable },
    image: {
      class: SizedImageTool as unknown as ToolConstructable,
      config: {
        uploader: {
          uploadByFile: (file: File) =>
            uploadBlogImage(file).catch((error: unknown) => {
              onError(describeUploadError(error));
              return { success: 0 };
            }),
          // Only files are taken: an address elsewhere would not show under the page's Content Security Policy.
          uploadByUrl: () => Promise.resolve({ success: 0 }),
        },
      },
    },
    embed: { class: Embed as unknown as ToolConstructable, config: { services: { youtube: true, vimeo: true } } },
    marker: Marker,
    inlineCode: InlineCode as unknown as ToolConstructable,
    underline: Underline as unknown as ToolConstructable,
  };
}
