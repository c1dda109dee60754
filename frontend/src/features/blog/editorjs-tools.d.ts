// @editorjs/link and @editorjs/marker ship no types: both are Editor.js tool classes.
declare module '@editorjs/link' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const LinkTool: BlockToolConstructable;
  export default LinkTool;
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
