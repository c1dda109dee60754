import type { BlogContent } from './api';

// The delay and the save state's texts are the app's (the consultation notes save themselves the same way).
export { AUTOSAVE_DELAY_MS, AUTOSAVE_TEXTS, type AutosaveState } from '../../lib/autosave';

/**
 * The blocks as compared for unsaved changes: their types and data only. Editor.js reports changes that change
 * nothing saved (a picture's address renewed, a block focused), so the editor is unsaved only when this differs.
 */
export function contentKey(content: BlogContent): string {
  return JSON.stringify(content.blocks.map((b) => ({ type: b.type, data: b.data })));
}
