/**
 * A PDF's language, from the locale setting the export job passes: its texts (pdf-words.ts, the
 * English source; pdf-words.de.ts, the German) and its figures' formats (pdf-format.ts).
 */
import { sayCoreSentences } from '../../../shared/core-sentences.ts';
import { type PdfFormat, pdfFormat } from './pdf-format.ts';
import { german } from './pdf-words.de.ts';
import { english, type PdfWords } from './pdf-words.ts';

/** Whether a locale setting gives the German texts: any `de-*` tag. */
export const isGerman = (locale: string) => new Intl.Locale(locale).language === 'de';

/** The texts and the figures' formats of one PDF, in the locale setting (null: en-US, pdf-format.ts). */
export function pdfWords(locale: string | null | undefined): { t: PdfWords; f: PdfFormat } {
  const f = pdfFormat(locale);
  return { t: isGerman(f.locale) ? german(f) : english(f), f };
}

/**
 * A sentence of the core (a pack's reason, a reconciliation's problem, why a period's
 * transactions are incomplete) in the document's language: as written in an English document,
 * else each known sentence said again, its dates in the locale's notation.
 */
export function coreSentence(text: string, t: PdfWords, f: PdfFormat): string {
  return f.english ? text : sayCoreSentences(text, t.core, f.date);
}
