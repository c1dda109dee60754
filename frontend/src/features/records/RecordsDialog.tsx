import { useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, LinearProgress, Stack, Typography, useMediaQuery } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useErrorText } from '../../i18n/errorText';
import { useT, type MessageId } from '../../i18n/useT';
import { uploadForm, type UploadTarget } from './api';
import { PHONE_QUERY, UPLOADED_CLOSE_DELAY_MS, shownProgress } from './rules';

/**
 * The frame of the records modals (upload prescription, upload reports, consultation notes): a dialog, full screen on a
 * phone, titled with a Close button; the form; the failure inline (seed 001 §4: the message shows and the modal stays
 * open); the actions after Cancel. While `busy`, nothing closes it (Close, Cancel, Escape, a click outside). While
 * `dirty` (input not saved or not uploaded yet), closing it, another page or a closed tab asks first, unless
 * `beforeClose` saved what was left (a self-saving draft).
 */
export function RecordsDialog(props: {
  open: boolean;
  title: string;
  titleId: string;
  busy: boolean;
  error: string | null;
  onClose(): void;
  maxWidth?: 'sm' | 'md';
  /** The form holds input not saved (or files not uploaded) yet. */
  dirty?: boolean;
  /** Tried before asking to discard: true when nothing is left unsaved (a draft saved what was left). */
  beforeClose?(): Promise<boolean>;
  /** Shown at the start of the actions row (the chosen files' count and size). */
  summary?: ReactNode;
  actions: ReactNode;
  children: ReactNode;
}) {
  const t = useT();
  const phone = useMediaQuery(PHONE_QUERY);
  const { confirmDiscard } = useUnsavedChanges(props.open && props.dirty === true);
  const close = async () => {
    if (props.busy) return;
    if (props.dirty && props.beforeClose && (await props.beforeClose())) return props.onClose();
    if (await confirmDiscard()) props.onClose();
  };
  return (
    <Dialog open={props.open} onClose={() => void close()} fullWidth fullScreen={phone} maxWidth={props.maxWidth ?? 'sm'} aria-labelledby={props.titleId}>
      <DialogTitle id={props.titleId} sx={{ pr: 6 }}>
        {props.title}
        <IconButton aria-label={t('records.close')} onClick={() => void close()} disabled={props.busy} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {props.children}
          {props.error && (
            <Alert severity="error" role="alert">
              {props.error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        {props.summary}
        <Button onClick={() => void close()} disabled={props.busy}>
          {t('records.cancel')}
        </Button>
        {props.actions}
      </DialogActions>
    </Dialog>
  );
}

/**
 * A request of a records modal and its failure: `run` clears the last failure, awaits the request, and on a refusal
 * keeps it for the dialog to show in the chosen language (the server's refusal, or the seeds' `fallback` message);
 * true when it went through.
 */
export function useFailure(fallback: MessageId) {
  const explain = useErrorText();
  // The failure itself, so that its words follow the language if it changes while shown.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const run = async (request: () => Promise<unknown>): Promise<boolean> => {
    setFailure(null);
    try {
      await request();
      return true;
    } catch (e) {
      setFailure({ error: e });
      return false;
    }
  };
  return { error: failure ? explain(failure.error, fallback) : null, run, clear: () => setFailure(null) };
}

/**
 * An upload of a records modal (seed 001 §4): progress from the bytes sent, capped at 90 % until the server answers,
 * then 100 % and 'Uploaded', and `onUploaded` about 0.5 s later; a failure shows inline with the server's message or
 * the seeds' `fallback`.
 */
export function useUpload(fallback: MessageId) {
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState(false);
  const failure = useFailure(fallback);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const send = async (target: UploadTarget, form: FormData, onUploaded: () => void) => {
    setProgress(0);
    const sent = await failure.run(() => uploadForm(target, form, (loaded, total) => setProgress(shownProgress(loaded, total, false))));
    if (!sent) {
      setProgress(null);
      return;
    }
    setProgress(100);
    setDone(true);
    timer.current = setTimeout(() => {
      setProgress(null);
      setDone(false);
      onUploaded();
    }, UPLOADED_CLOSE_DELAY_MS);
  };
  const reset = () => {
    clearTimeout(timer.current);
    setProgress(null);
    setDone(false);
    failure.clear();
  };
  return { uploading: progress !== null, progress, done, error: failure.error, send, reset, clearError: failure.clear };
}

/** The upload's progress bar and its words ('Uploading... n%', then 'Uploaded'). */
export function UploadProgress({ progress, done }: { progress: number | null; done: boolean }) {
  const t = useT();
  if (progress === null) return null;
  return (
    <Box>
      <LinearProgress variant="determinate" value={progress} aria-label={t('records.uploadProgress')} />
      <Typography variant="body2" color="text.secondary" role="status" data-testid="upload-progress">
        {done ? t('records.uploaded') : t('records.uploadingPercent', { progress })}
      </Typography>
    </Box>
  );
}
