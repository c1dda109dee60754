import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useT } from '../../i18n/useT';
import { DEBUG_LOG_CAP, logText, type DebugEntry } from './model';

const LEVEL_COLOR = { info: 'info', warn: 'warning', error: 'error', debug: 'default' } as const;

/**
 * Seed 001 §2: the call's log (timestamp, level, message, optional data), at most 50 entries; Copy, Clear, Close. For
 * support staff, but shown to anyone: its labels are in the chosen language, the log lines stay as they were written.
 */
export function DebugConsole({ open, entries, onClear, onClose, onCopied }: { open: boolean; entries: DebugEntry[]; onClear(): void; onClose(): void; onCopied(ok: boolean): void }) {
  const t = useT();
  const copy = () => {
    const text = logText(entries);
    if (!navigator.clipboard) return onCopied(false);
    navigator.clipboard.writeText(text).then(
      () => onCopied(true),
      () => onCopied(false),
    );
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="debug-console-title">
      <DialogTitle id="debug-console-title">{t('video.debugConsole')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
          {t('video.logSize', { count: entries.length, max: DEBUG_LOG_CAP })}
        </Typography>
        {entries.length === 0 ? (
          <Typography color="text.secondary">{t('video.noLogEntries')}</Typography>
        ) : (
          <Box component="ol" aria-label={t('video.logEntries')} data-testid="debug-log" sx={{ listStyle: 'none', p: 0, m: 0, fontFamily: 'monospace', fontSize: 13 }}>
            {entries.map((entry) => (
              <Box component="li" key={entry.id} sx={{ py: 0.5, borderBottom: 1, borderColor: 'divider', overflowWrap: 'anywhere' }}>
                <Box component="time" dateTime={entry.timestamp} sx={{ color: 'text.secondary', mr: 1 }}>
                  {entry.timestamp.slice(11, 23)}
                </Box>
                <Chip size="small" label={entry.level.toUpperCase()} color={LEVEL_COLOR[entry.level]} sx={{ mr: 1, height: 20 }} />
                {entry.message}
                {entry.data !== undefined && (
                  <Box component="pre" sx={{ m: 0, mt: 0.5, whiteSpace: 'pre-wrap', color: 'text.secondary' }}>
                    {JSON.stringify(entry.data)}
                  </Box>
                )}
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={copy}>{t('video.copy')}</Button>
        <Button onClick={onClear}>{t('video.clear')}</Button>
        <Button onClick={onClose} variant="contained">
          {t('video.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
