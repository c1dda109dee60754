import { Alert, Box, Checkbox, CircularProgress, FormControlLabel, FormHelperText, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import { CONSENT_LANGUAGE_NAMES, CONSENT_LANGUAGES, type ConsentLanguage, type ConsentNotice } from '@telemed/contracts/consent-notice';

const INTRO = {
  booking: { before: 'Before your first booking', act: 'send your request' },
  reports: { before: 'Before you upload reports', act: 'upload them' },
} as const;

export const CONSENT_AGREE_LABEL = 'I have read the privacy notice and I agree to it';
export const CONSENT_REQUIRED_TEXT = 'Please tick the box to agree to the privacy notice first.';

/**
 * The privacy notice, readable in English or Hindi, shown before a patient's first booking or upload of reports, with
 * its own box to tick: agreeing is a step of its own, not hidden in the button that sends the request.
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
        {intro.before}, please read how we use your data (version {notice?.version ?? '…'}), and tick the box if you agree; then{' '}
        {intro.act}. You can withdraw any time on your Profile.
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
        label={CONSENT_AGREE_LABEL}
      />
      {props.missing && !props.agreed && (
        <FormHelperText error id="consent-missing" role="alert">
          {CONSENT_REQUIRED_TEXT}
        </FormHelperText>
      )}
    </Box>
  );
}
