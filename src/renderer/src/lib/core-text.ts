/**
 * The core's sentences a view shows as they come (a reconciliation's problems, a pack's
 * reasons, written in English for the CLI, the PDF and the CSV), said in the UI's language when
 * it is not English: each known sentence (src/shared/core-sentences.ts, which the PDFs use too)
 * is found in the text and written again from words.core, its dates in the locale's format. A
 * sentence not known there stays as it is.
 */
import { sayCoreSentences } from '../../../shared/core-sentences.ts';
import { date } from './format.ts';
import { currentLanguage, words } from './words.ts';

export function coreText(text: string): string {
  if (currentLanguage() === 'en') return text;
  return sayCoreSentences(text, words.core, date);
}
