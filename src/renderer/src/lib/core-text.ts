/**
 * The core's sentences a view shows as they come (a reconciliation's problems, a pack's
 * reasons, written in English for the CLI, the PDF and the CSV), said in the UI's language when
 * it is not English: each known sentence is found in the text and written again from
 * words.core, its dates in the locale's format. A sentence not known here stays as it is.
 */
import { date } from './format.ts';
import { currentLanguage, words } from './words.ts';

const ISO = '(\\d{4}-\\d{2}-\\d{2})';
const known: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [
    new RegExp(`Partial: (\\d+) of the scope's wallet chains (?:is|are) not cached at ${ISO} and not in the totals: (.*?)\\.(?=\\s|$)`, 'g'),
    (m) => words.core.partial(Number(m[1]), date(m[2]), m[3] ?? ''),
  ],
  [
    /No cached price in the period for (?:1 token|(\d+) tokens), (.*?)(?: and (\d+) more)?: (\d+) transfers? not valued\. Fetch the positions at dates inside the period \(weekly\) to price them\./g,
    (m) => words.core.noPrice(Number(m[1] ?? 1), m[2] ?? '', Number(m[3] ?? 0), Number(m[4])),
  ],
  [/No cached price for (.+?) in the period: its change in quantity of (\S+) is not valued\./g, (m) => words.core.noPriceAccrual(m[1] ?? '', m[2] ?? '')],
  [new RegExp(`positions at ${ISO} are not cached \\(sync that date\\)`, 'g'), (m) => words.core.positionsNotCached(date(m[1]))],
  [new RegExp(`transactions of the period are not synced(?: \\(complete until ${ISO}\\))?`, 'g'), (m) => words.core.notSynced(m[1] ? date(m[1]) : null)],
  [/transactions of the period are not fully indexed by the service yet \(completion_ratio below 1\)/g, () => words.core.notIndexed],
  [/the transaction sync of the period was interrupted \(sync transactions again\)/g, () => words.core.interrupted],
  [/transactions of the period are incomplete: (.*)$/g, (m) => words.core.incomplete(m[1] ?? '')],
  [/(\d+) transfer\(s\) of the period belong to transactions with no status: whether they moved tokens is unknown/g, (m) => words.core.noStatus(Number(m[1]))],
  [/(\d+) transaction\(s\) have no date: whether they fall in the period is unknown/g, (m) => words.core.noDate(Number(m[1]))],
];

export function coreText(text: string): string {
  if (currentLanguage() === 'en') return text;
  let out = text;
  for (const [pattern, say] of known) out = out.replace(pattern, (...args) => say(args.slice(0, -2) as unknown as RegExpExecArray));
  return out;
}
