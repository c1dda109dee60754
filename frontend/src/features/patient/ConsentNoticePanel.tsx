import { Alert, Box, CircularProgress, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import { CONSENT_LANGUAGE_NAMES, CONSENT_LANGUAGES, type ConsentLanguage, type ConsentNotice } from '@telemed/contracts/consent-notice';

const INTRO = {
  booking: { before: 'Before your first booking', act: 'Sending this request' },
  reports: { before: 'Before you upload reports', act: 'Uploading them' },
} as const;

/** The privacy notice, readable in English or Hindi, shown before a patient's first booking or upload of reports. */
export function ConsentNoticePanel(props: {
  /** What agreeing goes with (booking by default). */
  purpose?: keyof typeof INTRO;
  notice: ConsentNotice | undefined;
  loading: boolean;
  language: ConsentLanguage;
  onLanguage(language: ConsentLanguage): void;
}) {
  const { notice, loading, language } = props;
  const intro = INTRO[props.purpose ?? 'booking'];
  return (
    <Box component="section" aria-labelledby="consent-title" data-testid="consent-notice" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id="consent-title" variant="subtitle1" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <PrivacyTipOutlined fontSize="small" aria-hidden />
          {notice?.title ?? 'Privacy notice'}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={language}
          aria-label="Language of the notice"
          onChange={(_e, value: ConsentLanguage | null) => value && props.onLanguage(value)}
        >
          {CONSENT_LANGUAGES.map((l) => (
            <ToggleButton key={l} value={l} lang={l}>
              {CONSENT_LANGUAGE_NAMES[l]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {intro.before}, please read how we use your data. {intro.act} records that you agree (version{' '}
        {notice?.version ?? '…'}); you can withdraw any time on your Profile.
      </Typography>
      {loading && <CircularProgress size={20} aria-label="Loading the notice" />}
      {!loading && !notice && <Alert severity="error">The privacy notice could not be loaded. Please try again.</Alert>}
      {notice && (
        <Box
          lang={notice.language}
          tabIndex={0}
          role="region"
          aria-label="Privacy notice text"
          sx={{ maxHeight: 240, overflowY: 'auto', pr: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
        >
          {notice.text.split('\n\n').map((paragraph, i) => (
            <Typography key={i} variant="body2" sx={{ mb: 1 }}>
              {paragraph}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}
