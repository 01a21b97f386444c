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
  /** Tokens the period's prices do not value: the transfers and the changes no transaction explains (either may be 0). */
  noPrice: (tokens: number, named: string, more: number, transfers: number, changes: number) => string;
  noDate: (n: number) => string;
}

/**
 * The core's sentences in English, word for word as the core writes them, counts written by
 * `count` (the screen's grouped integers, a PDF's own): one text for the screen's words and the
 * PDFs' (src/renderer/src/lib/words.ts, src/main/core/reports/pdf-words.ts).
 */
export function englishCoreSentences(count: (n: number) => string): CoreSentences {
  return {
    positionsNotCached: (date) => `positions at ${date} are not cached (sync that date)`,
    notSynced: (until) => `transactions of the period are not synced${until ? ` (complete until ${until})` : ''}`,
    notIndexed: 'transactions of the period are not fully indexed by the service yet (completion_ratio below 1)',
    interrupted: 'the transaction sync of the period was interrupted (sync transactions again)',
    incomplete: (why) => `transactions of the period are incomplete: ${why}`,
    noStatus: (n) => `${count(n)} transfer(s) of the period belong to transactions with no status: whether they moved tokens is unknown`,
    partial: (n, date, names) =>
      `Partial: ${count(n)} of the scope's wallet chains ${n === 1 ? 'is' : 'are'} not cached at ${date} and not in the totals: ${names}.`,
    noPrice: (tokens, named, more, transfers, changes) =>
      `No cached price in the period for ${tokens === 1 ? '1 token' : `${count(tokens)} tokens`}, ${named}${more ? ` and ${count(more)} more` : ''}: ${[
        transfers ? `${count(transfers)} transfer${transfers === 1 ? '' : 's'}` : '',
        changes ? `${count(changes)} change${changes === 1 ? '' : 's'} in quantity that no transaction explains` : '',
      ]
        .filter(Boolean)
        .join(' and ')} not valued. Fetch the positions at dates inside the period (weekly) to price them.`,
    noDate: (n) => `${count(n)} transaction(s) have no date: whether they fall in the period is unknown`,
  };
}

const germanPlural = new Intl.PluralRules('de');
const pl = (n: number, one: string, other: string): string => (germanPlural.select(n) === 'one' ? one : other);

/** The same sentences in German, for the German screens and the German PDFs alike. */
export function germanCoreSentences(count: (n: number) => string): CoreSentences {
  return {
    positionsNotCached: (date) => `Positionen am ${date} nicht gespeichert (dieses Datum synchronisieren)`,
    notSynced: (until) => `Transaktionen des Zeitraums nicht synchronisiert${until ? ` (vollständig bis ${until})` : ''}`,
    notIndexed: 'Transaktionen des Zeitraums vom Dienst noch nicht vollständig indiziert (completion_ratio unter 1)',
    interrupted: 'Die Transaktionssynchronisierung des Zeitraums wurde unterbrochen (Transaktionen erneut synchronisieren)',
    incomplete: (why) => `Transaktionen des Zeitraums unvollständig: ${why}`,
    noStatus: (n) =>
      `${count(n)} ${pl(n, 'Überweisung des Zeitraums gehört', 'Überweisungen des Zeitraums gehören')} zu Transaktionen ohne Status: Ob sie Token bewegten, ist unbekannt`,
    partial: (n, date, names) =>
      `Teilweise: ${count(n)} ${pl(n, 'Wallet-Chain des Bereichs ist', 'Wallet-Chains des Bereichs sind')} am ${date} nicht gespeichert und nicht in den Summen: ${names}.`,
    noPrice: (tokens, named, more, transfers, changes) =>
      `Kein gespeicherter Preis im Zeitraum für ${count(tokens)} Token, ${named}${more ? ` und ${count(more)} weitere` : ''}: ${[
        transfers ? `${count(transfers)} ${pl(transfers, 'Überweisung', 'Überweisungen')}` : '',
        changes ? `${count(changes)} ${pl(changes, 'Mengenänderung', 'Mengenänderungen')}, die keine Transaktion erklärt,` : '',
      ]
        .filter(Boolean)
        .join(' und ')} nicht bewertet. Laden Sie die Positionen an Daten im Zeitraum (wöchentlich), um sie zu bewerten.`,
    noDate: (n) => `${count(n)} ${pl(n, 'Transaktion hat', 'Transaktionen haben')} kein Datum: Ob sie in den Zeitraum fallen, ist unbekannt`,
  };
}

const ISO = '(\\d{4}-\\d{2}-\\d{2})';
type Known = Array<[RegExp, (m: RegExpExecArray, say: CoreSentences, date: (iso: string) => string) => string]>;
const known: Known = [
  [
    new RegExp(`Partial: (\\d+) of the scope's wallet chains (?:is|are) not cached at ${ISO} and not in the totals: (.*?)\\.(?=\\s|$)`, 'g'),
    (m, say, date) => say.partial(Number(m[1]), date(m[2]!), m[3] ?? ''),
  ],
  [
    /No cached price in the period for (?:1 token|(\d+) tokens), (.*?)(?: and (\d+) more)?: (?:(\d+) transfers?)?(?: and )?(?:(\d+) changes? in quantity that no transaction explains)? not valued\. Fetch the positions at dates inside the period \(weekly\) to price them\./g,
    (m, say) => say.noPrice(Number(m[1] ?? 1), m[2] ?? '', Number(m[3] ?? 0), Number(m[4] ?? 0), Number(m[5] ?? 0)),
  ],
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

/**
 * The service client's error messages (core service/errors.ts), said again in another language on
 * a screen (a failed sync's notice, a view's error). What the service itself said (its message,
 * an HTTP status, a status word) and a connection's detail stay as sent: they are its data.
 */
export interface CoreErrorSentences {
  authRefused: (status: string, service: string | null) => string;
  rateLimitedGaveUp: (wait: string) => string;
  rateLimited: (seconds: string | null) => string;
  serverFailed: (status: string, service: string | null) => string;
  timedOut: string;
  unreachable: (detail: string) => string;
  rejected: (status: string, service: string | null) => string;
  unreadable: (problem: string) => string;
  serviceStatus: (status: string, service: string | null) => string;
  cancelled: string;
  /** formatWait's "12 s" and "5 minutes". */
  seconds: (n: number) => string;
  minutes: (n: number) => string;
}

const wait = (w: string, say: CoreErrorSentences) => {
  const m = /^(\d+) (s|minutes)$/.exec(w);
  return m ? (m[2] === 's' ? say.seconds(Number(m[1])) : say.minutes(Number(m[1]))) : w;
};
type KnownError = Array<[RegExp, (m: RegExpExecArray, say: CoreErrorSentences) => string]>;
const knownErrors: KnownError = [
  [
    /^The service refused the access key \(HTTP (\d+)(?:: (.*))?\)\. Check the key: in Settings in the app; from the command line with folioscope key set, or FOLIOSCOPE_ACCESS_KEY if that is where it comes from\.$/s,
    (m, say) => say.authRefused(m[1]!, m[2] ?? null),
  ],
  [
    /^The service refused every request for its rate limit for (\d+ (?:s|minutes)), waiting longer after each refusal: Folioscope stopped asking it for now\. Try again later\.$/,
    (m, say) => say.rateLimitedGaveUp(wait(m[1]!, say)),
  ],
  [/^The service is rate-limiting requests(?:; it asks to wait (\d+) s)?\. Try again later\.$/, (m, say) => say.rateLimited(m[1] ?? null)],
  [/^The service failed with HTTP (\d+)(?:: (.*))?\. Try again later\.$/s, (m, say) => say.serverFailed(m[1]!, m[2] ?? null)],
  [/^The service did not answer in time\. Check your connection and try again\.$/, (_, say) => say.timedOut],
  [/^Could not reach the service \((.*)\)\. Check your connection and the base URL\.$/s, (m, say) => say.unreachable(m[1]!)],
  [/^The service rejected the request \(HTTP (\d+)\): (.*)$/s, (m, say) => say.rejected(m[1]!, m[2] === 'no reason given' ? null : m[2]!)],
  [/^The service sent a response Folioscope cannot read: (.*)$/s, (m, say) => say.unreadable(m[1]!)],
  [/^The service answered with status "(.*?)": (.*)$/s, (m, say) => say.serviceStatus(m[1]!, m[2] === 'no message' ? null : m[2]!)],
  [/^Cancelled\.$/, (_, say) => say.cancelled],
];

/** A core error message said by `say` when it is one of the service client's, else as it is. */
export function sayCoreError(message: string, say: CoreErrorSentences): string {
  for (const [pattern, write] of knownErrors) {
    const m = pattern.exec(message);
    if (m) return write(m, say);
  }
  return message;
}
