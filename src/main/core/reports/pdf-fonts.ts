/**
 * The fonts a PDF draws a character with. What the standard Helvetica fonts encode (WinAnsi:
 * Latin-1 and a few marks) stays in Helvetica, so Latin text looks as it always has; any other
 * character is drawn with the first embedded Noto font that has a glyph for it: Noto Sans
 * (Latin Extended, Greek, Cyrillic, Vietnamese, Devanagari), Noto Sans Arabic, Noto Sans Hebrew,
 * Noto Sans Thai, Noto Sans KR (Korean Hangul only), Noto Sans SC (Chinese, Japanese kana,
 * full-width forms), then Noto Emoji (monochrome: a PDF font has one colour). The fonts come from the
 * @fontsource packages (SIL Open Font License 1.1), as the WOFF files of their unicode-range
 * subsets: a file is opened only when a character of its range is drawn, so a report with no
 * such name opens none. Resolved from node_modules beside the code: the CLI, the web shell and
 * Electron's main process (node_modules in app.asar) find them alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';

export type BaseFont = 'Helvetica' | 'Helvetica-Bold';

/** A font file of one subset and weight: `key` names it in the document. */
export interface Face {
  key: string;
  bytes: Buffer;
  font: fontkit.Font;
  rtl: boolean;
}

/** Korean Hangul: syllables, jamo, compatibility jamo, extended jamo. */
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff]/u;
/**
 * What Noto Emoji draws: pictographs, flags' regional indicators, the keycap mark, the tags of
 * subdivision flags and the joiners and selectors within a sequence. Not the digits, "#" and "*"
 * its ranges also list: those stay in Helvetica.
 */
// Alternatives, not one class: the marks and joiners are tested one character at a time.
const EMOJI = /^(?:\p{Extended_Pictographic}|[\u{1f1e6}-\u{1f1ff}\u{e0020}-\u{e007f}]|\u20e3|\u200d|\ufe0f)$/u;

/**
 * The families in the order they are tried, each with the subsets of its unicode.json used (all
 * when omitted) and the characters it is used for (all its ranges hold, when omitted).
 *
 * Noto Sans KR draws Hangul only, and is tried before Noto Sans SC: SC's slices hold 80 Hangul
 * syllables and the compatibility jamo, so with SC first those few would be drawn in SC's design
 * and the rest of a Korean name in KR's. Han characters stay with SC although KR's slices hold
 * 4,600 of them: KR draws them in Korean forms, and a Chinese name should keep its Chinese forms
 * (and print as it did before KR came). Noto Emoji is tried last: none of the fonts before it has
 * a pictograph (SC's ranges list some, its glyphs do not), and Noto Sans keeps the arrows and
 * symbols it has, drawn as text.
 */
const FAMILIES: ReadonlyArray<{ pkg: string; subsets?: string[]; rtl?: boolean; only?: RegExp }> = [
  { pkg: 'noto-sans' },
  { pkg: 'noto-sans-arabic', subsets: ['arabic'], rtl: true },
  { pkg: 'noto-sans-hebrew', subsets: ['hebrew'], rtl: true },
  { pkg: 'noto-sans-thai', subsets: ['thai'] },
  { pkg: 'noto-sans-kr', only: HANGUL },
  { pkg: 'noto-sans-sc' },
  { pkg: 'noto-emoji', only: EMOJI },
];

interface Subset {
  file: (weight: 400 | 700) => string;
  ranges: Array<[number, number]>;
  rtl: boolean;
  only: RegExp | undefined;
}

let subsets: Subset[] | null = null;
// Not named `require`: the Electron main bundle declares one of its own at the top.
const resolver = createRequire(import.meta.url);

/** "U+0400-045F,U+2116" as [[0x400, 0x45f], [0x2116, 0x2116]]. */
const parseRanges = (s: string): Array<[number, number]> =>
  s.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(lo!, 16), parseInt(hi ?? lo!, 16)];
  });

function holdsOne(lo: number, hi: number, only: RegExp): boolean {
  for (let c = lo; c <= hi; c++) if (only.test(String.fromCodePoint(c))) return true;
  return false;
}

function allSubsets(): Subset[] {
  if (subsets) return subsets;
  subsets = FAMILIES.flatMap(({ pkg, subsets: names, rtl, only }) => {
    // The package's main file is its CSS; the fonts and the ranges lie beside it.
    const dir = dirname(resolver.resolve(`@fontsource/${pkg}`));
    const ranges = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
    return (
      Object.entries(ranges)
        .filter(([name]) => !names || names.includes(name))
        .map(([name, range]) => ({
          file: (weight: 400 | 700) => join(dir, 'files', `${pkg}-${name.replace(/[[\]]/g, '')}-${weight}-normal.woff`),
          ranges: parseRanges(range),
          rtl: !!rtl,
          only,
        }))
        // A family drawing some characters only keeps the subsets that hold one (KR: not its Han-only
        // or Latin slices), so those files are never looked at.
        .filter((s) => !only || s.ranges.some(([lo, hi]) => holdsOne(lo, hi, only)))
    );
  });
  return subsets;
}

/** Every font file a PDF may open (both weights of each subset used): electron-builder.yml must ship them. */
export const fontFiles = (): string[] => allSubsets().flatMap((s) => [s.file(400), s.file(700)]);

const opened = new Map<string, Face>();

function open(s: Subset, weight: 400 | 700): Face {
  // A family without a bold file (a package may ship fewer weights) draws bold as regular.
  const path = weight === 700 && !existsSync(s.file(700)) ? s.file(400) : s.file(weight);
  let face = opened.get(path);
  if (!face) {
    const bytes = readFileSync(path);
    face = { key: path.slice(path.lastIndexOf('/') + 1).replace(/\.woff$/, ''), bytes, font: fontkit.create(bytes), rtl: s.rtl };
    opened.set(path, face);
  }
  return face;
}

/** Whether the face has a glyph for the code point (a subset whose cmap fontkit cannot read has none). */
function has(face: Face, codePoint: number): boolean {
  try {
    return face.font.hasGlyphForCodePoint(codePoint);
  } catch {
    return false;
  }
}

/** What the standard fonts print as they are (after pdfText's mapping). */
const WIN_ANSI = /^[\n\x20-\x7e\u00a1-\u00ff\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]$/;

const chosen = new Map<number, Face | null>();

/** The embedded font for a character the standard fonts cannot print, or null when none has it. */
export function faceFor(codePoint: number, weight: 400 | 700): Face | null {
  const key = codePoint * 2 + (weight === 700 ? 1 : 0);
  const known = chosen.get(key);
  if (known !== undefined) return known;
  let found: Face | null = null;
  const c = String.fromCodePoint(codePoint);
  for (const s of allSubsets()) {
    if (s.only && !s.only.test(c)) continue;
    if (!s.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi)) continue;
    const face = open(s, weight);
    if (has(face, codePoint)) {
      found = face;
      break;
    }
  }
  chosen.set(key, found);
  return found;
}

/** Whether some font prints the character: the standard fonts or an embedded one. */
export const printable = (c: string): boolean => WIN_ANSI.test(c) || faceFor(c.codePointAt(0)!, 400) !== null;

/** A stretch of text drawn with one font: a standard font's name, or an embedded face. */
export interface Run {
  text: string;
  font: BaseFont | Face;
}

const weightOf = (base: BaseFont) => (base === 'Helvetica-Bold' ? 700 : 400);
/** Spaces and punctuation: they take the font of the text around them. */
const NEUTRAL = /^[\s\p{P}\p{S}]$/u;
/** Combining marks and joiners stay with the character before them. */
const JOINING = /^[\p{M}\u200c\u200d]$/u;
const isRtl = (r: Run) => typeof r.font !== 'string' && r.font.rtl;

/**
 * The text cut into runs by font, in the order they are drawn left to right. A right-to-left
 * run (Arabic, Hebrew) is laid out by fontkit, which shapes it and gives its glyphs in visual
 * order; neighbouring right-to-left runs, with the numbers and punctuation between them, are
 * drawn in reverse order, so a name wholly in Arabic or Hebrew reads right to left as a whole.
 * A character no font has is a "?" (pdfText's job: it never reaches here).
 */
export function runsOf(text: string, base: BaseFont): Run[] {
  const key = `${base}\u0000${text}`;
  let runs = cut.get(key);
  if (!runs) {
    // A table repeats its labels row after row: their runs are cut once (a bounded cache).
    if (cut.size > 5000) cut.clear();
    runs = cutRuns(text, base);
    cut.set(key, runs);
  }
  return runs;
}

const cut = new Map<string, Run[]>();

function cutRuns(text: string, base: BaseFont): Run[] {
  const weight = weightOf(base);
  const runs: Run[] = [];
  for (const c of text) {
    const last = runs.at(-1);
    let font: BaseFont | Face;
    if (WIN_ANSI.test(c)) font = base;
    else if (last && typeof last.font !== 'string' && JOINING.test(c) && has(last.font, c.codePointAt(0)!)) font = last.font;
    else font = faceFor(c.codePointAt(0)!, weight) ?? base;
    const shown = font === base && !WIN_ANSI.test(c) ? '?' : c;
    if (last && last.font === font) last.text += shown;
    else runs.push({ text: shown, font });
  }
  // Spaces and punctuation between two runs of one embedded font join them ("Фонд Альфа" is one
  // run). Not right to left: pdfkit lays a run out word by word, so fontkit would reverse each
  // word on its own; the words of a right-to-left name are runs of their own, ordered below.
  for (let i = 1; i + 1 < runs.length; i++) {
    const [a, b, c] = [runs[i - 1]!, runs[i]!, runs[i + 1]!];
    if (typeof a.font === 'string' || a.font.rtl || a.font !== c.font || b.font !== base) continue;
    const face = a.font;
    if (![...b.text].every((ch) => NEUTRAL.test(ch) && has(face, ch.codePointAt(0)!))) continue;
    a.text += b.text + c.text;
    runs.splice(i, 2);
    i--;
  }
  return visualOrder(runs);
}

/** Runs between right-to-left runs that hold no letters (numbers, spaces, punctuation) are part of the right-to-left stretch. */
function visualOrder(runs: Run[]): Run[] {
  const out: Run[] = [];
  let i = 0;
  while (i < runs.length) {
    if (!isRtl(runs[i]!)) {
      out.push(runs[i++]!);
      continue;
    }
    // The longest stretch from here that ends on a right-to-left run.
    let end = i;
    for (let j = i + 1; j < runs.length; j++) {
      const r = runs[j]!;
      if (isRtl(r)) end = j;
      else if (/\p{L}/u.test(r.text)) break;
    }
    out.push(...runs.slice(i, end + 1).reverse());
    i = end + 1;
  }
  return out;
}

/** Whether the text needs an embedded font (else it is drawn exactly as with the standard fonts alone). */
export const needsEmbedded = (text: string): boolean => [...text].some((c) => !WIN_ANSI.test(c));
