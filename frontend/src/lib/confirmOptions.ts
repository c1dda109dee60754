/** A question the app asks through its one dialog (useConfirm), kept apart so the dialog and its provider import no circle. */
export interface ConfirmOptions {
  title: string;
  /** The question, in the seeds' words where they give them. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action gets a red confirm button. */
  destructive?: boolean;
  /** A notice with one button (instead of the browser's alert()). */
  acknowledgeOnly?: boolean;
}
