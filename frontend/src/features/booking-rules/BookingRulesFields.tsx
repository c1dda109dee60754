import { FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { BOOKING_RULE_LIMITS, LATE_CANCELLATION_KINDS, type BookingRules, type LateCancellation } from '@telemed/contracts/booking-rules';
import { useT, type MessageId } from '../../i18n/useT';
import { noticeWords } from './text';

/**
 * The fields a doctor (their own rules) and a clinic's admin (its defaults) set the booking rules with (issue 35): the
 * notice in minutes, the moves allowed, what a late cancellation counts as, and for a doctor whether moves are
 * accepted automatically. Each field says what is wrong with it as it is typed; the server checks the same bounds.
 */
export interface RulesForm {
  notice: string;
  moves: string;
  late: LateCancellation;
  autoAccept: boolean;
}

export const formOf = (rules: BookingRules): RulesForm => ({
  notice: String(rules.minNoticeMinutes),
  moves: String(rules.maxReschedules),
  late: rules.lateCancellation,
  autoAccept: rules.autoAcceptMoves,
});

const { minNoticeMinutes: NOTICE, maxReschedules: MOVES } = BOOKING_RULE_LIMITS;
const wholeNumber = (text: string): number | null => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : null);

/** The form's rules when every field keeps its bounds, and which fields do not. */
export function readForm(form: RulesForm): { rules: BookingRules | null; noticeWrong: boolean; movesWrong: boolean } {
  const notice = wholeNumber(form.notice);
  const moves = wholeNumber(form.moves);
  const noticeWrong = notice === null || notice > NOTICE.max || notice % NOTICE.step !== 0;
  const movesWrong = moves === null || moves > MOVES.max;
  const rules = noticeWrong || movesWrong ? null : { minNoticeMinutes: notice!, maxReschedules: moves!, lateCancellation: form.late, autoAcceptMoves: form.autoAccept };
  return { rules, noticeWrong, movesWrong };
}

const LATE_NAMES: Record<LateCancellation, MessageId> = { cancellation: 'bookingRules.lateAsCancellation', no_show: 'bookingRules.lateAsNoShow' };

export function BookingRulesFields({
  form,
  onChange,
  withAutoAccept,
  disabled = false,
}: {
  form: RulesForm;
  onChange(form: RulesForm): void;
  /** A doctor's own rules: a clinic's defaults leave accepting moves to each doctor. */
  withAutoAccept: boolean;
  disabled?: boolean;
}) {
  const t = useT();
  const { noticeWrong, movesWrong } = readForm(form);
  const noticeShown = wholeNumber(form.notice);
  return (
    <Stack spacing={2}>
      <TextField
        label={t('bookingRules.noticeLabel')}
        type="number"
        required
        disabled={disabled}
        value={form.notice}
        onChange={(e) => onChange({ ...form, notice: e.target.value })}
        error={noticeWrong}
        helperText={
          noticeWrong || noticeShown === null
            ? t('bookingRules.noticeInvalid', { max: NOTICE.max, step: NOTICE.step })
            : t('bookingRules.noticeHelp', { notice: noticeWords(t, noticeShown), max: NOTICE.max, step: NOTICE.step })
        }
        slotProps={{ htmlInput: { min: NOTICE.min, max: NOTICE.max, step: NOTICE.step, inputMode: 'numeric' } }}
      />
      <TextField
        label={t('bookingRules.movesLabel')}
        type="number"
        required
        disabled={disabled}
        value={form.moves}
        onChange={(e) => onChange({ ...form, moves: e.target.value })}
        error={movesWrong}
        helperText={movesWrong ? t('bookingRules.movesInvalid', { max: MOVES.max }) : t('bookingRules.movesHelp', { max: MOVES.max })}
        slotProps={{ htmlInput: { min: MOVES.min, max: MOVES.max, step: 1, inputMode: 'numeric' } }}
      />
      <TextField label={t('bookingRules.lateLabel')} select disabled={disabled} value={form.late} onChange={(e) => onChange({ ...form, late: LATE_CANCELLATION_KINDS.find((kind) => kind === e.target.value) ?? form.late })}>
        {LATE_CANCELLATION_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(LATE_NAMES[kind])}
          </MenuItem>
        ))}
      </TextField>
      {withAutoAccept && (
        <div>
          <FormControlLabel
            control={<Switch checked={form.autoAccept} disabled={disabled} onChange={(e) => onChange({ ...form, autoAccept: e.target.checked })} />}
            label={t('bookingRules.autoAccept')}
          />
          <Typography variant="body2" color="text.secondary" sx={{ ml: { xs: 0, sm: 6.5 }, mt: -0.5 }}>
            {t('bookingRules.autoAcceptHelp')}
          </Typography>
        </div>
      )}
    </Stack>
  );
}
