/**
 * The evidence the core keeps for what it learned about the service (its paging, time unit,
 * order, bounds, logs, recent window: service/learn.ts, transactions/logs.ts, sync.ts,
 * recent.ts), written from these templates in English (kept in the cache, printed by
 * `folioscope doctor`, shown by Settings' service check). A screen in another language reads
 * a kept line back with the same template and writes it from its own (words.de.ts
 * `serviceCheck.conventionEvidence`), the values as they were (a transaction's hash, a chain):
 * the lines in caches written before this file read back too, since the words are the same.
 */
export const CONVENTION_EVIDENCE = {
  timeUnitSeconds: 'start_time=0, end_time=now in seconds returned rows',
  timeUnitMs: 'end_time=now in seconds returned nothing (January 1970 in ms); in milliseconds it returned rows',
  baseRefusedNear: 'around a past row, page=0 was refused and page=1 held it',
  baseAgainNear: 'around a past row, page=0 was page=1 again and page=1 held it',
  baseEmptyNear: 'around a past row, page=0 was empty and page=1 held it',
  baseZeroNear: 'around a past row, page=0 held a row that page=1 did not',
  baseRefused: 'page=0 was refused (4xx)',
  baseSame: 'page=0 and page=1 returned the same rows',
  baseEmpty: 'page=0 was empty and page=1 was not',
  baseZero: 'page=0 returned rows that page=1 did not',
  sizeAllRefused: 'every page size from {max} down to {min} was refused',
  sizeAccepted: 'pageSize={max} was accepted',
  sizeSmaller: 'pageSize={max} was refused, {asked} accepted',
  pagingWorks: 'page 2 of two rows differs from page 1',
  pagingRepeats: 'page 2 of two rows repeats page 1 although the history has {n} rows',
  pagingEmpty: 'page 2 of two rows is empty although the history has {n} rows',
  pagingUnknown: 'the wallet has two rows or fewer: cannot tell',
  capWhole: 'a page of {n} was served whole',
  capMore: 'asked {asked} rows a page, got {n}, and the next page had more',
  capProvenMore: 'asked {asked}, got {n} with more on the next page',
  capFits: 'the whole history ({n} rows) fits one page: the cap is at least {n}, not proven',
  capShort: 'history shorter than {asked} rows',
  syncCap: 'a page of {n} rows was followed by more rows during a sync',
  pastEmpty: 'a page far past the end was empty',
  pastRepeat: 'a page far past the end returned rows (the last page again)',
  pastRefused: 'a page far past the end was refused',
  orderTimes: 'times of {n} rows of one page',
  orderUnknown: 'fewer than two distinct times seen',
  boundsInclusive: '[T, T] included a row at T',
  boundsHalfOpen: '[T, T] missed a row at T, [T, T+1] included it: ranges are widened by one {unit}',
  boundsExclusive: '[T, T] and [T, T+1] missed a row at T: ranges are widened by one {unit} each side',
  logsNeither: 'a read of {count} logs fitted neither reading of total {total}; learning again',
  logsTotal: 'a read of {count} logs in {pages} page(s) of {size} had total {total}',
  logIndexPerPage: 'log_index repeated across pages of one transaction',
  logIndexGlobal: 'log_index distinct across pages of one transaction',
  logsCap: 'asked {size} logs a page, got {cap} with more on the next page',
  notLearned: "not learned yet: the client's first reading is used",
  recentDefault: '{hours} (the default): no restatement found deep enough in it to widen it',
  recentWidened: 'widened from {hours}: {evidence}',
  recentSet: '{evidence}; set to at least {set} h in Settings',
  recentFound: 'a transaction {kind} {deep} behind the newest synced history ({hash}… of {wallet}… on {chain}), with a margin of {margin} ×',
  recentFoundCapped:
    'a transaction {kind} {deep} behind the newest synced history ({hash}… of {wallet}… on {chain}), with a margin of {margin} ×, capped at {cap}',
} as const;

export type EvidenceCode = keyof typeof CONVENTION_EVIDENCE;
export type EvidenceValues = Record<string, string | number>;

const fill = (template: string, values: EvidenceValues, say: (name: string, value: string) => string = (_, v) => v): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => say(name, String(values[name] ?? '')));

/** A line of evidence in English, from its template and values (what the core keeps). */
export function conventionEvidence(code: EvidenceCode, values: EvidenceValues = {}): string {
  return fill(CONVENTION_EVIDENCE[code], values);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMBER = '\\d+(?:\\.\\d+)?';
/** What a value of each name can be (so "indexed late 30.5 h" splits at the figure); any other: any text. */
const VALUE: Record<string, string> = {
  ...Object.fromEntries(['max', 'min', 'asked', 'n', 'count', 'pages', 'size', 'set', 'margin'].map((k) => [k, NUMBER])),
  hours: `${NUMBER} h`,
  deep: `${NUMBER} h`,
  cap: `${NUMBER}(?: h)?`,
  total: '\\S+',
  unit: 'm?s',
};
/** Each template as a pattern that finds its values in a kept line, the longest (most particular) first. */
const patterns = (Object.entries(CONVENTION_EVIDENCE) as Array<[EvidenceCode, string]>)
  .sort(([, a], [, b]) => b.replace(/\{\w+\}/g, '').length - a.replace(/\{\w+\}/g, '').length)
  .map(([code, template]) => {
    const names: string[] = [];
    const source = template
      .split(/(\{\w+\})/)
      .map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (!m) return escapeRe(part);
        // A value named twice is read once and must match again.
        if (names.includes(m[1]!)) return `\\k<${m[1]}>`;
        names.push(m[1]!);
        return `(?<${m[1]}>${VALUE[m[1]!] ?? '.+?'})`;
      })
      .join('');
    return { code, re: new RegExp(`^${source}$`, 's') };
  });

/** A kept line read back: its template and values, or null when it is none of them. */
export function readConventionEvidence(line: string): { code: EvidenceCode; values: Record<string, string> } | null {
  for (const { code, re } of patterns) {
    const m = re.exec(line);
    if (m) return { code, values: { ...m.groups } };
  }
  return null;
}

/**
 * A kept line said again with `templates` (another language's, keyed as CONVENTION_EVIDENCE),
 * each value through `value` (its name and text: a figure or a unit in that language); a line
 * within a line ({evidence}) said the same way. A line no template reads stays as it is.
 */
export function sayConventionEvidence(line: string, templates: Record<string, string>, value: (name: string, v: string) => string): string {
  const read = readConventionEvidence(line);
  if (!read || !Object.hasOwn(templates, read.code)) return line;
  return fill(templates[read.code]!, read.values, (name, v) => (name === 'evidence' ? sayConventionEvidence(v, templates, value) : value(name, v)));
}
