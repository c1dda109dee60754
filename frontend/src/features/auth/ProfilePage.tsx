import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { Alert, Button, Card, CardContent, CircularProgress, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { DOCTOR_CITY_MAX_LENGTH, MEDICAL_COUNCILS } from '@telemed/contracts/constants';
import { LANGUAGES, LANGUAGE_CODES, isLanguageCode, languageOf } from '@telemed/contracts/languages';
import type { ApiRoutes } from '@telemed/contracts';
import { call } from '../../lib/client';
import { sessionStore } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { ConsentsCard } from './ConsentsCard';
import { MessagingCard } from './MessagingCard';
import { BookingRulesCard } from './BookingRulesCard';
import { PrivacySections } from './PrivacySections';
import { LanguagePicker } from '../../i18n/LanguagePicker';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';

/** A doctor's public booking page, to share with patients: it shows their open slots and books without an account first. */
function PublicPageLink({ doctorId }: { doctorId: string }) {
  const t = useT();
  const url = `${window.location.origin}/${doctorId}`;
  return (
    <Alert icon={<ShareOutlined />} severity="info">
      {t.rich('account.publicPage', {
        url,
        link: (chunks) => (
          <Link component={RouterLink} to={`/${doctorId}`} data-testid="public-page-link" sx={{ overflowWrap: 'anywhere' }}>
            {chunks}
          </Link>
        ),
      })}
    </Alert>
  );
}

/** The profile as loaded, but the fields typed since the last save (they differ from it) as typed. */
function keepTyped<T extends Record<string, string>>(current: T, saved: T, loaded: T): T {
  const out = { ...loaded };
  for (const key of Object.keys(loaded) as Array<keyof T>) if (current[key] !== saved[key]) out[key] = current[key];
  return out;
}

/** The signed-in person's profile; doctors also keep the registration that every consultation shows. */
export function ProfilePage() {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ['users', 'me'], queryFn: () => call('getMe') });
  // Languages as their codes joined ('en,hi'), so the form compares field by field as text.
  const [form, setForm] = useState({ name: '', phone_number: '', specialty: '', qualification: '', consultation_fee: '', registration_number: '', medical_council: '', city: '', languages: '' });
  // The profile as loaded or last saved: the form is unsaved while it differs (leaving the page asks first).
  const [saved, setSaved] = useState(form);
  const savedRef = useRef(form);
  useUnsavedChanges((Object.keys(form) as Array<keyof typeof form>).some((k) => form[k] !== saved[k]));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!me.data) return;
    const d = me.data.doctor;
    const loaded = {
      name: me.data.name,
      phone_number: me.data.phone_number ?? '',
      specialty: d?.specialty ?? '',
      qualification: d?.qualification ?? '',
      consultation_fee: d ? String(d.consultation_fee) : '',
      registration_number: d?.registration_number ?? '',
      medical_council: d?.medical_council ?? '',
      city: d?.city ?? '',
      languages: (d?.languages ?? []).join(','),
    };
    // The profile read again (after any write of the user's own, a language picked here among them) takes the place
    // of the form only where the user has not typed: what they typed stays until they save or leave.
    const before = savedRef.current;
    setForm((current) => keepTyped(current, before, loaded));
    setSaved(loaded);
    savedRef.current = loaded;
  }, [me.data]);
  const save = useMutation({
    mutationFn: (form: typeof saved) => {
      const person = { name: form.name.trim(), phone_number: form.phone_number.trim() || null };
      const body: ApiRoutes['updateMe']['body'] = me.data?.doctor
        ? {
            ...person,
            specialty: form.specialty.trim(),
            qualification: form.qualification.trim(),
            consultation_fee: Number(form.consultation_fee),
            registration_number: form.registration_number.trim() || null,
            medical_council: form.medical_council || null,
            city: form.city.trim() || null,
            // None chosen sends nothing: a doctor's languages are cleared by choosing others, never left empty.
            ...(form.languages ? { languages: form.languages.split(',').filter(isLanguageCode) } : {}),
          }
        : person;
      return call('updateMe', { body });
    },
    onSuccess: async (_answer, sent) => {
      setError(null);
      setSaved(sent);
      savedRef.current = sent;
      const session = sessionStore.get();
      if (session) sessionStore.set({ ...session, user: { ...session.user, name: sent.name.trim() } });
      toasts.show({ type: 'success', title: t('account.profileSaved') });
      await queryClient.invalidateQueries();
    },
    onError: (e) => setError(explain(e, 'account.saveFailed')),
  });
  if (me.isLoading) return <CircularProgress />;
  if (!me.data) return <Typography>{t('account.profileNotLoaded')}</Typography>;
  const field = (name: keyof typeof form) => ({ value: form[name], onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }) });
  return (
    <>
      <Card sx={{ maxWidth: 640, mx: 'auto' }}>
        <CardContent>
          <Stack
            component="form"
            spacing={2}
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              save.mutate(form);
            }}
          >
            <Typography variant="h5" component="h1">
              {t('account.profileTitle')}
            </Typography>
            {me.data.email && <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{me.data.email}</Typography>}
            {me.data.doctor && <PublicPageLink doctorId={me.data.user_id} />}
            {/* Saved at once (on the account and in this browser), apart from the form: what was typed stays. */}
            <LanguagePicker />
            {error && <Alert severity="error">{error}</Alert>}
            <TextField label={t('account.name')} required {...field('name')} />
            <TextField label={t('account.phone')} type="tel" placeholder="+91 98765 43210" {...field('phone_number')} />
            {me.data.doctor && (
              <>
                <TextField label={t('account.specialty')} required {...field('specialty')} />
                <TextField label={t('account.qualification')} required {...field('qualification')} />
                <TextField
                  label={t('account.city')}
                  placeholder={t('account.cityPlaceholder')}
                  helperText={t('account.cityHelp')}
                  slotProps={{ htmlInput: { maxLength: DOCTOR_CITY_MAX_LENGTH } }}
                  {...field('city')}
                />
                <TextField
                  label={t('account.consultLanguages')}
                  helperText={t('account.consultLanguagesHelp')}
                  select
                  value={form.languages ? form.languages.split(',') : []}
                  onChange={(e) => {
                    const chosen: unknown = e.target.value;
                    const codes = Array.isArray(chosen) ? chosen : String(chosen).split(',');
                    setForm({ ...form, languages: LANGUAGE_CODES.filter((code) => codes.includes(code)).join(',') });
                  }}
                  slotProps={{ select: { multiple: true, renderValue: (codes) => (Array.isArray(codes) ? codes.map((code) => languageOf(code).nativeName).join(', ') : '') } }}
                  data-testid="consult-languages"
                >
                  {LANGUAGES.map((language) => (
                    <MenuItem key={language.code} value={language.code} lang={language.code}>
                      {language.nativeName}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField label={t('account.consultationFee')} type="number" required slotProps={{ htmlInput: { min: 0 } }} {...field('consultation_fee')} />
                <TextField label={t('account.registrationNumber')} helperText={t('account.registrationNumberHelp')} {...field('registration_number')} />
                <TextField label={t('account.medicalCouncil')} select {...field('medical_council')}>
                  <MenuItem value="">—</MenuItem>
                  {MEDICAL_COUNCILS.map((c) => (
                    <MenuItem key={c} value={c}>
                      {c}
                    </MenuItem>
                  ))}
                </TextField>
              </>
            )}
            <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={save.isPending}>
              {save.isPending ? t('account.saving') : t('account.save')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      {me.data.doctor && <BookingRulesCard doctorId={me.data.user_id} />}
      <MessagingCard />
      {me.data.account_type === 'patient' && <ConsentsCard />}
      <PrivacySections />
    </>
  );
}
