import { useId } from 'react';
import { FormControl, InputLabel, NativeSelect } from '@mui/material';
import { LANGUAGES, isLanguageCode } from '@telemed/contracts/languages';
import { useLanguage } from './I18nProvider';
import { useT } from './useT';
import { keepOnAccount } from './accountLanguage';
import { languageNameFonts } from './languageNameFonts';


/**
 * The language picker: each language by its own name (a reader of Tamil finds தமிழ் whatever the page is in). A native
 * select: light enough for the sign-in page's first download, and the phone's own picker on a phone. Signed in, the
 * choice is kept on the account as well as in this browser.
 */
export function LanguagePicker() {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 140 }}>
      <InputLabel variant="standard" htmlFor={id}>
        {t('common.language')}
      </InputLabel>
      <NativeSelect
        value={language}
        onChange={(event) => {
          const picked = event.target.value;
          if (!isLanguageCode(picked)) return;
          setLanguage(picked);
          keepOnAccount(picked);
        }}
        inputProps={{ id }}
        // The ten names are in nine scripts: from the system's fonts where it has them (languageNameFonts.ts).
        sx={{ fontFamily: languageNameFonts(), '& option': { fontFamily: languageNameFonts() } }}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.nativeName}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  );
}
