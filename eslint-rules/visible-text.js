import formatjs from 'eslint-plugin-formatjs';

/**
 * Every text a user sees comes from the language catalogues (issue 33): FormatJS's own rule, which finds literal text
 * in JSX and in the props that show text, told about the props MUI and the app show text through, and quiet about
 * what has no word to translate: a separator such as " · ", a phone number's example, data in a template literal
 * (only its literal parts count), and the names of brands and standards, which every language writes the same.
 */
const literalRule = formatjs.rules['no-literal-string-in-jsx'];

const UNTRANSLATED_NAMES = /\b(Google|WebRTC|PDF|Jitsi|LiveKit|DICOM|UPI|ICE|STUN|TURN|SDP)\b/g;
const hasWord = (text) => /\p{L}/u.test(text.replace(UNTRANSLATED_NAMES, ''));

/** The words a reported node would show: a literal's value, a template's literal parts, an attribute's value. */
function shownText(node) {
  if (!node) return '';
  if (node.type === 'JSXAttribute') return shownText(node.value);
  if (node.type === 'JSXExpressionContainer') return shownText(node.expression);
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : '';
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' ');
  if (node.type === 'JSXText') return node.value;
  return '';
}

export const TEXT_PROPS = [
  ['*', '(label|helperText|title|placeholder|alt|tooltip|primaryText|secondaryText|emptyText|confirmLabel|cancelLabel|message|subheader|description|caption|heading|text)'],
  ['*', 'aria-(label|description|roledescription|valuetext|placeholder)'],
];

export default {
  meta: literalRule.meta,
  create(context) {
    const quietContext = Object.create(context, {
      report: { value: (descriptor) => hasWord(shownText(descriptor.node)) && context.report(descriptor) },
    });
    return literalRule.create(quietContext);
  },
};
