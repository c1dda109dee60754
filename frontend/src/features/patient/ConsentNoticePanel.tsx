import { useId } from 'react';
import { Alert, Box, Checkbox, CircularProgress, FormControl, FormControlLabel, FormHelperText, InputLabel, NativeSelect, Typography } from '@mui/material';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import { CONSENT_LANGUAGE_NAMES, CONSENT_LANGUAGES, type ConsentLanguage, type ConsentNotice } from '@telemed/contracts/consent-notice';
import { isLanguageCode } from '@telemed/contracts/languages';
import { useT } from '../../i18n/useT';
import type { PatientMessage } from './messages';
import { languageNameFonts } from '../../i18n/languageNameFonts';

/** What the panel says before the notice, by what agreeing goes with (one sentence each, so each language orders its words). */
const INTRO = {
  booking: 'patient.consentIntroBooking',
  reports: 'patient.consentIntroReports',
} as const satisfies Record<string, PatientMessage>;

/**
 * The privacy notice, shown before a patient's first booking or upload of reports, with its own box to tick: agreeing is
 * a step of its own, not hidden in the button that sends the request. It opens in the screens' language; the switch
 * offers the ten by their own names in a native select (ten buttons do not fit a phone's width; a phone shows its own
 * picker).
 */
export function ConsentNoticePanel(props: {
  /** What agreeing goes with (booking by default). */
  purpose?: keyof typeof INTRO;
  notice: ConsentNotice | undefined;
  loading: boolean;
  language: ConsentLanguage;
  onLanguage(language: ConsentLanguage): void;
  agreed: boolean;
  onAgreed(agreed: boolean): void;
  /** The patient tried to go on without ticking the box: it says what is missing. */
  missing: boolean;
}) {
  const { notice, loading, language } = props;
  const t = useT();
  const intro = INTRO[props.purpose ?? 'booking'];
  const languageId = useId();
  return (
    <Box component="section" aria-labelledby="consent-title" data-testid="consent-notice" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="consent-title" variant="subtitle1" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <PrivacyTipOutlined fontSize="small" aria-hidden />
          {notice?.title ?? t('patient.privacyNotice')}
        </Typography>
        <FormControl size="small" sx={{ minWidth: 140 }}>
          <InputLabel variant="standard" htmlFor={languageId}>
            {t('patient.noticeLanguage')}
          </InputLabel>
          <NativeSelect
            value={language}
            onChange={(event) => {
              const picked = event.target.value;
              if (isLanguageCode(picked)) props.onLanguage(picked);
            }}
            inputProps={{ id: languageId }}
            sx={{ fontFamily: languageNameFonts(), '& option': { fontFamily: languageNameFonts() } }}
          >
            {CONSENT_LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {CONSENT_LANGUAGE_NAMES[l]}
              </option>
            ))}
          </NativeSelect>
        </FormControl>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t(intro, { version: notice?.version ?? '…' })}
      </Typography>
      {loading && <CircularProgress size={20} aria-label={t('patient.loadingNotice')} />}
      {!loading && !notice && <Alert severity="error">{t('patient.noticeNotLoaded')}</Alert>}
      {notice && (
        <Box
          lang={notice.language}
          tabIndex={0}
          role="region"
          aria-label={t('patient.noticeText')}
          sx={{ maxHeight: 240, overflowY: 'auto', pr: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
        >
          {notice.text.split('\n\n').map((paragraph, i) => (
            <Typography key={i} variant="body2" sx={{ mb: 1 }}>
              {paragraph}
            </Typography>
          ))}
        </Box>
      )}
      <FormControlLabel
        sx={{ mt: 1 }}
        control={
          <Checkbox
            checked={props.agreed}
            disabled={!notice}
            onChange={(e) => props.onAgreed(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': props.missing && !props.agreed ? 'consent-missing' : undefined } }}
          />
        }
        label={t('patient.consentAgree')}
      />
      {props.missing && !props.agreed && (
        <FormHelperText error id="consent-missing" role="alert">
          {t('patient.consentRequired')}
        </FormHelperText>
      )}
    </Box>
  );
}
