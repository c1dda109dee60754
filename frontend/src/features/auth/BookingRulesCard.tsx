import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { BookingRulesFields, formOf, readForm, type RulesForm } from '../booking-rules/BookingRulesFields';
import { BookingRulesSummary } from '../booking-rules/BookingRulesSummary';
import { SOURCE_TEXT } from '../booking-rules/text';
import { bookingRulesKey, rulesFromView } from '../patient/useBookingRules';

const sameForm = (a: RulesForm, b: RulesForm) => a.notice === b.notice && a.moves === b.moves && a.late === b.late && a.autoAccept === b.autoAccept;

/**
 * A doctor's own cancellation and reschedule rules (issue 35), on their profile: the rules in effect to start from
 * (their own, or their clinic's or the standard ones, said which), what patients will read, and a save of all four.
 */
export function BookingRulesCard({ doctorId }: { doctorId: string }) {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: bookingRulesKey(doctorId), queryFn: ({ signal }) => call('getDoctorBookingRules', { params: { doctor_id: doctorId }, signal }) });
  const [saved, setSaved] = useState<RulesForm | null>(null);
  const [form, setForm] = useState<RulesForm | null>(null);
  useEffect(() => {
    if (!current.data) return;
    const loaded = formOf(rulesFromView(current.data));
    // Read again (after a save, or another tab's): what was typed since stays.
    setForm((typed) => (typed && saved && !sameForm(typed, saved) ? typed : loaded));
    setSaved(loaded);
    // Only a new answer replaces the form; `saved` (this render's) is what the typed form is compared with.
  }, [current.data]);
  useUnsavedChanges(!!form && !!saved && !sameForm(form, saved));
  const save = useMutation({
    mutationFn: (rules: NonNullable<ReturnType<typeof readForm>['rules']>) =>
      call('setMyBookingRules', {
        body: { min_notice_minutes: rules.minNoticeMinutes, max_reschedules: rules.maxReschedules, late_cancellation: rules.lateCancellation, auto_accept_moves: rules.autoAcceptMoves },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(bookingRulesKey(doctorId), answer);
      toasts.show({ type: 'success', title: t('bookingRules.saved') });
    },
    onError: (e) => toasts.show({ type: 'error', title: t('bookingRules.saveFailed'), message: explain(e, 'bookingRules.saveFailed') }),
  });
  // Giving up one's own rules: the clinic's defaults (else the standard ones) apply again, read back from the server.
  const clear = useMutation({
    mutationFn: () => call('clearMyBookingRules'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: bookingRulesKey(doctorId) });
      toasts.show({ type: 'success', title: t('bookingRules.cleared') });
    },
    onError: (e) => toasts.show({ type: 'error', title: t('bookingRules.clearFailed'), message: explain(e, 'bookingRules.clearFailed') }),
  });
  const read = form ? readForm(form) : null;

  return (
    <Card sx={{ maxWidth: 640, mx: 'auto', mt: 2 }} component="section" aria-labelledby="booking-rules-title">
      <CardContent>
        <Stack
          spacing={2}
          component="form"
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (read?.rules) save.mutate(read.rules);
          }}
        >
          <Typography id="booking-rules-title" variant="h6" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <EventRepeatOutlined fontSize="small" aria-hidden /> {t('bookingRules.cardTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('bookingRules.cardIntro')}
          </Typography>
          {current.isLoading && <CircularProgress size={20} aria-label={t('bookingRules.loading')} />}
          {current.isError && <Alert severity="error">{t('bookingRules.loadFailed')}</Alert>}
          {current.data && form && (
            <>
              <Typography variant="body2" data-testid="booking-rules-source">
                {t(SOURCE_TEXT[current.data.source])}
              </Typography>
              <BookingRulesFields form={form} onChange={setForm} withAutoAccept disabled={save.isPending} />
              {read?.rules && (
                <Stack spacing={0.5}>
                  <Typography variant="subtitle2" component="h3">
                    {t('bookingRules.patientsSee')}
                  </Typography>
                  <BookingRulesSummary rules={read.rules} title={false} />
                </Stack>
              )}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={save.isPending || clear.isPending || !read?.rules}>
                  {save.isPending ? t('bookingRules.saving') : t('bookingRules.save')}
                </Button>
                {current.data.source === 'doctor' && (
                  <Button startIcon={<RestartAltOutlined />} disabled={save.isPending || clear.isPending} onClick={() => clear.mutate()}>
                    {t('bookingRules.useDefaults')}
                  </Button>
                )}
              </Stack>
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
