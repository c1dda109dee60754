import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';

const require = createRequire(import.meta.url);

type Doc = InstanceType<typeof PDFDocument>;

/**
 * The scripts of India's languages as the prescription prints them: each drawn with its Noto Sans font from
 * @fontsource (SIL Open Font License), the WOFF that pdfkit's fontkit embeds and shapes (conjuncts, reordered vowel
 * signs); Helvetica for Latin and the rest (the script subsets hold no Latin letters).
 */
const SCRIPTS = [
  { name: 'devanagari', from: 0x0900, to: 0x097f },
  { name: 'bengali', from: 0x0980, to: 0x09ff },
  { name: 'gurmukhi', from: 0x0a00, to: 0x0a7f },
  { name: 'gujarati', from: 0x0a80, to: 0x0aff },
  { name: 'tamil', from: 0x0b80, to: 0x0bff },
  { name: 'telugu', from: 0x0c00, to: 0x0c7f },
  { name: 'kannada', from: 0x0c80, to: 0x0cff },
  { name: 'malayalam', from: 0x0d00, to: 0x0d7f },
] as const;
type Script = (typeof SCRIPTS)[number]['name'];

const fontFile = (script: Script, weight: 400 | 700) => require.resolve(`@fontsource/noto-sans-${script}/files/noto-sans-${script}-${script}-${weight}-normal.woff`);

/** Registers each script's regular and bold font on a document (fontkit reads a font only when it is first used). */
export function registerScriptFonts(doc: Doc): void {
  for (const { name } of SCRIPTS) {
    doc.registerFont(name, fontFile(name, 400));
    doc.registerFont(`${name}-bold`, fontFile(name, 700));
  }
}

/** Vedic extensions and Devanagari Extended hold combining marks drawn with Devanagari. */
const isDevanagariExtra = (code: number) => (code >= 0x1cd0 && code <= 0x1cff) || (code >= 0xa8e0 && code <= 0xa8ff);

function scriptOf(char: string): Script | null {
  const code = char.codePointAt(0)!;
  if (isDevanagariExtra(code)) return 'devanagari';
  return SCRIPTS.find((s) => code >= s.from && code <= s.to)?.name ?? null;
}

/**
 * Text split into runs of one script each; null is Latin and everything else. Joiners and dandas stay with the run
 * before them, and spaces between words of one script join it (so a phrase is shaped as one run).
 */
export function scriptRuns(text: string): Array<{ text: string; script: Script | null }> {
  const out: Array<{ text: string; script: Script | null }> = [];
  for (const char of text) {
    const last = out.at(-1);
    const own = scriptOf(char);
    // Joiners, and the dandas every Indic script ends sentences with (coded in the Devanagari block), follow their run.
    const follows = char === '\u200C' || char === '\u200D' || ((char === '\u0964' || char === '\u0965') && last?.script);
    const script = follows && last ? last.script : own;
    if (last && last.script === script) last.text += char;
    else out.push({ text: char, script });
  }
  // A space between two runs of one script belongs to it: "दिन में" is one run, not two around a Latin space.
  for (let i = 1; i < out.length - 1; i += 1) {
    const [before, between, after] = [out[i - 1]!, out[i]!, out[i + 1]!];
    if (before.script !== null && before.script === after.script && between.script === null && /^\s+$/u.test(between.text)) {
      before.text += between.text + after.text;
      out.splice(i, 2);
      i -= 1;
    }
  }
  return out;
}

/** Writes a line in as many scripts as it holds, each run in its font. */
export function writeLine(doc: Doc, text: string, options: { size?: number; bold?: boolean } = {}): void {
  const parts = scriptRuns(text);
  doc.fontSize(options.size ?? 10);
  parts.forEach((part, i) => {
    const font = part.script ? `${part.script}${options.bold ? '-bold' : ''}` : options.bold ? 'Helvetica-Bold' : 'Helvetica';
    doc.font(font);
    doc.text(part.text, { continued: i < parts.length - 1 });
  });
  if (parts.length === 0) doc.text('');
}
