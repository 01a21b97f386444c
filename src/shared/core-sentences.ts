/**
 * The core's sentences a reader sees as they come (a reconciliation's problems, a pack's reasons,
 * a period's incomplete transactions: written in English for the CLI and the CSV), said again in
 * another language: each known sentence is found in the text and written anew by `say`, its dates
 * through `date`. A sentence not known here stays as it is. Used by the screens
 * (renderer lib/core-text.ts) and the PDFs (core reports/pdf-words.ts), so both know the same ones.
 */

/** The sentences, in one language (words.ts `core` on the screen, pdf-words.ts `core` in a PDF). */
export interface CoreSentences {
  positionsNotCached: (date: string) => string;
  notSynced: (until: string | null) => string;
  notIndexed: string;
  interrupted: string;
  incomplete: (why: string) => string;
  noStatus: (n: number) => string;
  partial: (n: number, date: string, names: string) => string;
  noPrice: (tokens: number, named: string, more: number, transfers: number) => string;
  noPriceAccrual: (token: string, qty: string) => string;
  noDate: (n: number) => string;
}

const ISO = '(\\d{4}-\\d{2}-\\d{2})';
type Known = Array<[RegExp, (m: RegExpExecArray, say: CoreSentences, date: (iso: string) => string) => string]>;
const known: Known = [
  [
    new RegExp(`Partial: (\\d+) of the scope's wallet chains (?:is|are) not cached at ${ISO} and not in the totals: (.*?)\\.(?=\\s|$)`, 'g'),
    (m, say, date) => say.partial(Number(m[1]), date(m[2]!), m[3] ?? ''),
  ],
  [
    /No cached price in the period for (?:1 token|(\d+) tokens), (.*?)(?: and (\d+) more)?: (\d+) transfers? not valued\. Fetch the positions at dates inside the period \(weekly\) to price them\./g,
    (m, say) => say.noPrice(Number(m[1] ?? 1), m[2] ?? '', Number(m[3] ?? 0), Number(m[4])),
  ],
  [/No cached price for (.+?) in the period: its change in quantity of (\S+) is not valued\./g, (m, say) => say.noPriceAccrual(m[1] ?? '', m[2] ?? '')],
  [new RegExp(`positions at ${ISO} are not cached \\(sync that date\\)`, 'g'), (m, say, date) => say.positionsNotCached(date(m[1]!))],
  [new RegExp(`transactions of the period are not synced(?: \\(complete until ${ISO}\\))?`, 'g'), (m, say, date) => say.notSynced(m[1] ? date(m[1]) : null)],
  [/transactions of the period are not fully indexed by the service yet \(completion_ratio below 1\)/g, (_, say) => say.notIndexed],
  [/the transaction sync of the period was interrupted \(sync transactions again\)/g, (_, say) => say.interrupted],
  [/transactions of the period are incomplete: (.*)$/g, (m, say) => say.incomplete(m[1] ?? '')],
  [/(\d+) transfer\(s\) of the period belong to transactions with no status: whether they moved tokens is unknown/g, (m, say) => say.noStatus(Number(m[1]))],
  [/(\d+) transaction\(s\) have no date: whether they fall in the period is unknown/g, (m, say) => say.noDate(Number(m[1]))],
];

/** `text` with every known core sentence said by `say`, its dates written by `date`. */
export function sayCoreSentences(text: string, say: CoreSentences, date: (iso: string) => string): string {
  let out = text;
  for (const [pattern, write] of known) out = out.replace(pattern, (...args) => write(args.slice(0, -2) as unknown as RegExpExecArray, say, date));
  return out;
}
