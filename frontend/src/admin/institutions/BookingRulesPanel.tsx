import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useRecordContext } from 'react-admin';
import { Alert, Box, Button, CircularProgress, Divider, Stack, TextField, Typography } from '@mui/material';
import { NO_SHOW_POLICY_LIMITS } from '@telemed/contracts/booking-rules';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { call } from '../../lib/client';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { BookingRulesFields, readForm, type RulesForm } from '../../features/booking-rules/BookingRulesFields';
import { BookingRulesSummary } from '../../features/booking-rules/BookingRulesSummary';

const rulesKey = (institutionId: string) => ['institutions', institutionId, 'booking-rules'] as const;

/**
 * The clinic's default cancellation and reschedule rules (issue 35), on its edit page in the console: for its doctors who
 * set none of their own (accepting moves automatically stays each doctor's choice). Its own small form beside the
 * institution's, saved on its own route (`PUT /institutions/{id}/booking-rules`, the clinic's admins).
 */
export function BookingRulesPanel() {
  const record = useRecordContext<{ id: string }>();
  const institutionId = record?.id;
  const t = useT();
  const explain = useErrorText();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: rulesKey(institutionId ?? ''),
    enabled: !!institutionId,
    queryFn: ({ signal }) => call('getInstitutionBookingRules', { params: { id: institutionId! }, signal }),
  });
  const [form, setForm] = useState<RulesForm | null>(null);
  const [policy, setPolicy] = useState<PolicyForm>({ limit: '0', months: '3' });
  useEffect(() => {
    const data = current.data;
    if (data) {
      setForm({ notice: String(data.min_notice_minutes), moves: String(data.max_reschedules), late: data.late_cancellation, autoAccept: false });
      setPolicy({ limit: String(data.no_show_limit), months: String(data.no_show_block_months) });
    }
  }, [current.data]);
  const save = useMutation({
    mutationFn: ({ rules, noShows }: { rules: NonNullable<ReturnType<typeof readForm>['rules']>; noShows: { limit: number; months: number } }) =>
      call('setInstitutionBookingRules', {
        params: { id: institutionId! },
        body: {
          min_notice_minutes: rules.minNoticeMinutes,
          max_reschedules: rules.maxReschedules,
          late_cancellation: rules.lateCancellation,
          no_show_limit: noShows.limit,
          no_show_block_months: noShows.months,
        },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(rulesKey(answer.institution_id), answer);
      notify(t('bookingRules.saved'), { type: 'success' });
    },
    onError: (e) => notify(explain(e, 'bookingRules.saveFailed'), { type: 'error' }),
  });
  if (!institutionId) return null;
  const read = form ? readForm(form) : null;
  const noShows = readPolicy(policy);
  return (
    // On a phone the institution form's toolbar stays at the bottom of the screen: room under the last button.
    <Box component="section" aria-labelledby="clinic-rules-title" sx={{ px: 2, pb: { xs: 10, sm: 2 } }}>
      <Divider sx={{ mb: 2 }} />
      <Stack
        spacing={2}
        component="form"
        noValidate
        sx={{ maxWidth: 560 }}
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (read?.rules && noShows.value) save.mutate({ rules: read.rules, noShows: noShows.value });
        }}
      >
        <Typography id="clinic-rules-title" variant="h6" component="h2">
          {t('bookingRules.clinicTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('bookingRules.clinicIntro')}
        </Typography>
        {current.isLoading && <CircularProgress size={20} aria-label={t('bookingRules.loading')} />}
        {current.isError && <Alert severity="error">{explain(current.error, 'bookingRules.loadFailed')}</Alert>}
        {current.data && form && (
          <>
            {!current.data.set && <Typography variant="body2" data-testid="clinic-rules-not-set">{t('bookingRules.clinicNotSet')}</Typography>}
            <BookingRulesFields form={form} onChange={setForm} withAutoAccept={false} disabled={save.isPending} />
            <Typography variant="subtitle2" component="h3">
              {t('bookingRules.noShowTitle')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('bookingRules.noShowIntro')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('bookingRules.noShowLimit')}
                type="number"
                value={policy.limit}
                onChange={(e) => setPolicy({ ...policy, limit: e.target.value })}
                error={noShows.problem === 'limit'}
                helperText={noShows.problem === 'limit' ? t('bookingRules.noShowLimitInvalid', { max: String(NO_SHOW_POLICY_LIMITS.limit.max) }) : ' '}
                slotProps={{ htmlInput: { min: 0, max: NO_SHOW_POLICY_LIMITS.limit.max, inputMode: 'numeric' } }}
                disabled={save.isPending}
              />
              <TextField
                label={t('bookingRules.noShowMonths')}
                type="number"
                value={policy.months}
                onChange={(e) => setPolicy({ ...policy, months: e.target.value })}
                error={noShows.problem === 'months'}
                helperText={noShows.problem === 'months' ? t('bookingRules.noShowMonthsInvalid', { max: String(NO_SHOW_POLICY_LIMITS.blockMonths.max) }) : ' '}
                slotProps={{ htmlInput: { min: 1, max: NO_SHOW_POLICY_LIMITS.blockMonths.max, inputMode: 'numeric' } }}
                disabled={save.isPending || noShows.value?.limit === 0}
              />
            </Stack>
            {read?.rules && (
              <Stack spacing={0.5}>
                <Typography variant="subtitle2" component="h3">
                  {t('bookingRules.patientsSee')}
                </Typography>
                <BookingRulesSummary rules={read.rules} title={false} />
              </Stack>
            )}
            <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={save.isPending || !read?.rules || !noShows.value} sx={{ alignSelf: 'flex-start' }}>
              {save.isPending ? t('bookingRules.saving') : t('bookingRules.save')}
            </Button>
          </>
        )}
      </Stack>
    </Box>
  );
}

/** The no-show policy's two fields as typed. */
interface PolicyForm {
  limit: string;
  months: string;
}

/** The policy the fields say (a limit of 0: off), or which of them is out of bounds. */
export function readPolicy(form: PolicyForm): { value: { limit: number; months: number } | null; problem: 'limit' | 'months' | null } {
  const limit = Number(form.limit);
  const months = Number(form.months);
  if (form.limit.trim() === '' || !Number.isInteger(limit) || limit < 0 || limit > NO_SHOW_POLICY_LIMITS.limit.max) return { value: null, problem: 'limit' };
  const { min, max } = NO_SHOW_POLICY_LIMITS.blockMonths;
  if (form.months.trim() === '' || !Number.isInteger(months) || months < min || months > max) return { value: null, problem: 'months' };
  return { value: { limit, months }, problem: null };
}
