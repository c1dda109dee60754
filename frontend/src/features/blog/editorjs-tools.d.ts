// @editorjs/link and @editorjs/marker ship no types: both are Editor.js tool classes.
declare module '@editorjs/link' {
  import type { API, BlockToolConstructorOptions } from '@editorjs/editorjs';
  /** What the app's subclass uses of it (link.mjs 2.6). */
  export default class LinkTool {
    constructor(options: BlockToolConstructorOptions<{ link?: string; meta?: object }, { endpoint?: string; headers?: Record<string, string> }>);
    protected api: API;
    protected data: { link?: string; meta?: object };
    render(): HTMLElement;
    save(): { link?: string; meta?: object };
    fetchLinkData(url: string): Promise<void>;
    protected showProgress(): void;
    protected onFetch(response: unknown): void;
    protected fetchingFailed(message: string): void;
  }
}
declare module '@editorjs/marker' {
  import type { InlineToolConstructable } from '@editorjs/editorjs';
  const Marker: InlineToolConstructable;
  export default Marker;
}
// @editorjs/embed has types, but its package's exports do not point at them.
declare module '@editorjs/embed' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const Embed: BlockToolConstructable;
  export default Embed;
}
