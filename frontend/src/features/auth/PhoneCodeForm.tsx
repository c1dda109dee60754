import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';

/** The code's length (contracts' PHONE_SIGN_IN.codeLength; that module brings zod, so it is repeated here and tested). */
export const PHONE_CODE_LENGTH = 6;

/** What the server answers when it has sent a code: the number as it reads it (E.164), the channel, and the waits. */
export type CodeSent = ApiRoutes['startPhoneSignIn']['response'];

interface PhoneCodeFormProps<T> {
  /** Sends a code: to the number as typed (the server reads it, India by default), then again to its reading of it. */
  send(phoneNumber: string): Promise<CodeSent>;
  /** Checks the code the person typed, with the challenge its sending answered (tries without it never count). */
  verify(phoneNumber: string, code: string, challenge: string): Promise<T>;
  /** The code was right. The form stays busy: its owner moves on (signs in, closes it). */
  onVerified(result: T): Promise<void> | void;
  /** Shows a Cancel button beside Send code. */
  onCancel?: () => void;
}

type Step = { name: 'number' } | { name: 'code'; sent: CodeSent; resendAt: number };

/** Seconds left until `at`, rounded up (0 once it has passed). */
const secondsUntil = (at: number, now: number) => Math.max(0, Math.ceil((at - now) / 1000));

/** The seconds a `phone_resend_wait` refusal names, if it is one. */
function resendWait(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'phone_resend_wait') return null;
  const seconds = Number(error.values[0]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/**
 * A mobile number proved by a six-digit code, in two steps: the number (Send code), then the code sent to it (Verify),
 * with Change number and a Resend code that waits as long as the server says. Used to sign in and to add a number to
 * an account; the caller gives the two calls.
 */
export function PhoneCodeForm<T>({ send, verify, onVerified, onCancel }: PhoneCodeFormProps<T>) {
  const t = useT();
  const explain = useErrorText();
  const [step, setStep] = useState<Step>({ name: 'number' });
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const resendAt = step.name === 'code' ? step.resendAt : 0;
  const waitLeft = secondsUntil(resendAt, now);
  // The countdown ticks each second until Resend code can be used.
  useEffect(() => {
    if (secondsUntil(resendAt, Date.now()) === 0) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= resendAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  const codeStep = (sent: CodeSent): Step => {
    const at = Date.now();
    setNow(at);
    return { name: 'code', sent, resendAt: at + sent.resend_after_seconds * 1000 };
  };

  async function sendCode(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const sent = await send(number.trim());
      setCode('');
      setResent(false);
      setStep(codeStep(sent));
    } catch (e) {
      setError(explain(e, 'auth.phoneSendFailed'));
    }
    setBusy(false);
  }

  async function resend(sent: CodeSent) {
    setBusy(true);
    setError(null);
    setResent(false);
    try {
      const again = await send(sent.phone_number);
      setCode('');
      setResent(true);
      setStep(codeStep(again));
    } catch (e) {
      setError(explain(e, 'auth.phoneSendFailed'));
      // Asked too early: the countdown shows the server's wait.
      const wait = resendWait(e);
      if (wait !== null) {
        const at = Date.now();
        setNow(at);
        setStep({ name: 'code', sent, resendAt: at + wait * 1000 });
      }
    }
    setBusy(false);
  }

  async function checkCode(event: FormEvent, sent: CodeSent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResent(false);
    let result: T;
    try {
      result = await verify(sent.phone_number, code, sent.challenge);
    } catch (e) {
      setError(explain(e, 'auth.phoneVerifyFailed'));
      setBusy(false);
      return;
    }
    await onVerified(result);
  }

  const problem = error && (
    <Alert severity="error" role="alert">
      {error}
    </Alert>
  );

  if (step.name === 'number') {
    return (
      <Stack component="form" spacing={2} onSubmit={sendCode} noValidate>
        <TextField
          label={t('auth.phoneNumber')}
          helperText={t('auth.phoneNumberHelp')}
          type="tel"
          autoComplete="tel"
          placeholder="98765 43210"
          required
          autoFocus
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 32 } }}
        />
        {problem}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
          {onCancel && <Button onClick={onCancel}>{t('auth.phoneCancel')}</Button>}
          <Button type="submit" variant="contained" disabled={busy || number.trim().length < 3}>
            {busy ? t('auth.phoneSending') : t('auth.phoneSendCode')}
          </Button>
        </Stack>
      </Stack>
    );
  }

  const { sent } = step;
  return (
    <Stack component="form" spacing={2} onSubmit={(e: FormEvent) => void checkCode(e, sent)} noValidate>
      <Typography>
        {t('auth.phoneCodeSent', { number: sent.phone_number, channel: sent.channel, minutes: Math.round(sent.expires_in_seconds / 60) })}
      </Typography>
      <CodeInput label={t('auth.phoneCode')} value={code} onChange={setCode} />
      {problem}
      {resent && !error && <ResentNotice text={t('auth.phoneResent')} />}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          onClick={() => {
            setError(null);
            setResent(false);
            setStep({ name: 'number' });
          }}
          disabled={busy}
        >
          {t('auth.phoneChangeNumber')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy || code.length !== PHONE_CODE_LENGTH}>
          {busy ? t('auth.phoneVerifying') : t('auth.phoneVerify')}
        </Button>
      </Stack>
      <Box>
        <Button size="small" onClick={() => void resend(sent)} disabled={busy || waitLeft > 0}>
          {waitLeft > 0 ? t('auth.phoneResendIn', { seconds: waitLeft }) : t('auth.phoneResend')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The six digits, as phones offer them from the SMS (one-time-code); anything else typed or pasted is dropped. */
function CodeInput({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  return (
    <TextField
      label={label}
      autoComplete="one-time-code"
      required
      autoFocus
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, PHONE_CODE_LENGTH))}
      slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', maxLength: PHONE_CODE_LENGTH } }}
    />
  );
}

function ResentNotice({ text }: { text: string }) {
  return (
    <Alert severity="info" role="status">
      {text}
    </Alert>
  );
}
