import { describe, it } from 'node:test';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import visibleText, { TEXT_PROPS } from './visible-text.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } } });
const options = [{ props: { include: TEXT_PROPS } }];
const error = [{ messageId: 'noLiteralStringInJsx' }];

tester.run('visible-text: no words on screen outside the catalogues', visibleText, {
  valid: [
    { code: '<p>{t("patient.title")}</p>', options },
    { code: '<TextField label={t("account.phone")} placeholder="+91 98765 43210" type="tel" />', options },
    { code: '<Dialog aria-labelledby="confirm-title" aria-controls="panel-1" />', options },
    { code: '<span>{`${doctor.specialty} · ${doctor.qualification}`}</span>', options },
    { code: '<Chip label={`#${tag}`} />', options },
    { code: '<dt>WebRTC</dt>', options },
    { code: '<p> · </p>', options },
  ],
  invalid: [
    { code: '<p>Book an appointment</p>', options, errors: error },
    { code: '<TextField label="Phone number" />', options, errors: error },
    { code: '<IconButton aria-label="Close" />', options, errors: error },
    { code: '<Alert title={ok ? "Saved" : t("x")} />', options, errors: error },
    { code: '<span>{`Dr. ${name}`}</span>', options, errors: error },
    { code: '<Tooltip title="Google sign-in" />', options, errors: error },
  ],
});
