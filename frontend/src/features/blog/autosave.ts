import type { BlogContent } from './api';

/** A draft saves itself this long after the doctor's last change (debounced). */
export const AUTOSAVE_DELAY_MS = 2000;

/** The editor's save state, as the doctor reads it beside the buttons. */
export const AUTOSAVE_TEXTS = {
  saving: 'Saving…',
  saved: 'Saved',
  failed: 'Not saved: it will be tried again as you write',
  unsaved: 'Unsaved changes',
} as const;

export type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * The blocks as compared for unsaved changes: their types and data only. Editor.js reports changes that change
 * nothing saved (a picture's address renewed, a block focused), so the editor is unsaved only when this differs.
 */
export function contentKey(content: BlogContent): string {
  return JSON.stringify(content.blocks.map((b) => ({ type: b.type, data: b.data })));
}
