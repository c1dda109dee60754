import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import { ApiError } from '../lib/api';
import { call } from '../lib/client';
import { browserZone } from '../lib/time';
import { upcoming, type Slot } from '../features/patient/types';
import { TruncatedText } from './TruncatedText';


/**
 * A doctor's open times for a dialog that picks among them (moving an appointment, offering other times, booking a
 * follow-up): read while it is open, under a key of its own, and what a refusal does to the choice: said in the
 * server's words, and after a 409 (the time was just taken) the times read again.
 */
export function useSlotChoice(doctorId: string, purpose: string, open: boolean, resetKey: unknown) {
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => setRefusal(null), [resetKey, open]);
  const slots = useQuery({
    queryKey: ['doctors', doctorId, 'slots', purpose],
    enabled: open && doctorId !== '',
    queryFn: () => call('getDoctorAvailableSlots', { params: { doctor_id: doctorId }, query: { timezone_str: browserZone() } }).then((r) => upcoming(r.slots)),
  });
  return {
    slots,
    refusal,
    clearRefusal: () => setRefusal(null),
    /** Says why the server refused; answers whether the times were read again (a 409: the choice no longer stands). */
    refused: (text: string, error: unknown): boolean => {
      setRefusal(text);
      if (!(error instanceof ApiError && error.status === 409)) return false;
      void slots.refetch();
      return true;
    },
  };
}

export interface SlotChoiceTexts {
  title: string;
  loading: string;
  failed: string;
  empty: string;
  close: string;
  confirm: string;
}

/**
 * The frame those dialogs share: full screen on a phone; who and when the choice is about; a note (the rule, the
 * window); the times (or their loading, failure or absence); what was chosen and any fields (`children`); the refusal;
 * and close or confirm. Closing waits while the choice is being sent.
 */
export function SlotChoiceDialog({
  open,
  name,
  texts,
  busy,
  onClose,
  onConfirm,
  confirmDisabled,
  subject,
  note,
  slots,
  list,
  picker,
  refusal,
  children,
}: {
  open: boolean;
  /** Names the dialog's title id (`{name}-title`) and test id (`{name}-dialog`). */
  name: string;
  texts: SlotChoiceTexts;
  busy: boolean;
  onClose(): void;
  onConfirm(): void;
  confirmDisabled: boolean;
  /** Whom it is about and the time it stands at; nothing while there is no appointment (the dialog closing). */
  subject: { name: string; line: string } | null;
  note: ReactNode;
  slots: UseQueryResult<Slot[]>;
  /** The times to offer (the query's, perhaps narrowed to a window). */
  list: Slot[];
  picker: ReactNode;
  refusal: string | null;
  children?: ReactNode;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth fullScreen={phone} maxWidth="sm" aria-labelledby={`${name}-title`} data-testid={`${name}-dialog`}>
      <DialogTitle id={`${name}-title`}>{texts.title}</DialogTitle>
      {subject && (
        <DialogContent dividers>
          <Stack spacing={2}>
            <Box>
              <TruncatedText text={subject.name} sx={{ fontWeight: 600 }} />
              <Typography color="text.secondary">{subject.line}</Typography>
            </Box>
            {note}
            {slots.isLoading && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <CircularProgress size={20} />
                <Typography>{texts.loading}</Typography>
              </Stack>
            )}
            {slots.isError && <Alert severity="warning">{texts.failed}</Alert>}
            {slots.isSuccess && list.length === 0 && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                <EventBusyOutlined fontSize="small" aria-hidden />
                <Typography color="text.secondary">{texts.empty}</Typography>
              </Stack>
            )}
            {list.length > 0 && picker}
            {children}
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
      )}
      <DialogActions disableSpacing sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy}>
          {texts.close}
        </Button>
        <Button variant="contained" disabled={confirmDisabled || busy} onClick={onConfirm}>
          {texts.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
