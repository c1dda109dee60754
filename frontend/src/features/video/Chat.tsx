import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { useFormat } from '../../i18n/format';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { CONSULTATION_MESSAGE_MAX_LENGTH } from './model';
import type { ChatMessage } from './api';

/** The text chat beside the video: the consultation's messages, oldest first; the fallback on a weak network. */
export function Chat({ messages, meId, onSend, disabled }: { messages: ChatMessage[]; meId: string; onSend(text: string): Promise<void>; disabled: boolean }) {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value || sending) return;
    setSending(true);
    setError(null);
    try {
      await onSend(value);
      setText('');
    } catch (failure) {
      setError(explain(failure, 'video.messageNotSent'));
    } finally {
      setSending(false);
    }
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="chat-title" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Typography id="chat-title" variant="subtitle1" component="h2" sx={{ px: 2, pt: 1.5, fontWeight: 600 }}>
        {t('video.chat')}
      </Typography>
      <Box component="ol" ref={list} aria-label={t('video.messages')} aria-live="polite" data-testid="chat-messages" sx={{ listStyle: 'none', m: 0, px: 2, py: 1, flex: 1, overflowY: 'auto', minHeight: 120, maxHeight: { xs: 240, md: 'none' } }}>
        {messages.length === 0 && (
          <Typography component="li" variant="body2" color="text.secondary">
            {t('video.noMessages')}
          </Typography>
        )}
        {messages.map((m) => {
          const mine = m.sender_id === meId;
          return (
            <Box component="li" key={m.message_id} sx={{ display: 'flex', flexDirection: 'column', alignItems: mine ? 'flex-end' : 'flex-start', mb: 1 }}>
              <Typography variant="caption" color="text.secondary">
                {t('video.messageByline', { sender: mine ? t('video.you') : m.sender_name, time: f.timeOfDay(new Date(m.sent_at)) })}
              </Typography>
              <Box sx={{ bgcolor: mine ? 'primary.main' : 'grey.100', color: mine ? 'primary.contrastText' : 'text.primary', px: 1.5, py: 0.75, borderRadius: 2, maxWidth: '85%', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {m.text}
              </Box>
            </Box>
          );
        })}
      </Box>
      <Box component="form" onSubmit={(e) => void submit(e)} sx={{ p: 1.5, borderTop: 1, borderColor: 'divider' }}>
        <Stack direction="row" spacing={1}>
          <TextField
            size="small"
            fullWidth
            label={t('video.message')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            disabled={disabled}
            slotProps={{ htmlInput: { maxLength: CONSULTATION_MESSAGE_MAX_LENGTH } }}
            error={Boolean(error)}
            helperText={error ?? undefined}
          />
          <Button type="submit" variant="contained" disabled={disabled || sending || !text.trim()} aria-label={t('video.sendMessage')} sx={{ minWidth: 0, px: 1.5 }}>
            <SendOutlined fontSize="small" />
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
