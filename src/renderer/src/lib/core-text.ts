/**
 * The core's sentences a view shows as they come (a reconciliation's problems, a pack's
 * reasons, written in English for the CLI, the PDF and the CSV), said in the UI's language when
 * it is not English: each known sentence (src/shared/core-sentences.ts, which the PDFs use too)
 * is found in the text and written again from words.core, its dates in the locale's format. A
 * sentence not known there stays as it is.
 */
import { sayCoreError, sayCoreSentences } from '../../../shared/core-sentences.ts';
import type { CheckEvidence, JobInfo, SerializedError, ServiceCheckItem, WalletImportRow } from '../../../shared/model.ts';
import { sayCode } from '../../../shared/core-codes.ts';
import { sayConventionEvidence } from '../../../shared/convention-evidence.ts';
import { date, decimal, integer } from './format.ts';
import { currentLanguage, type Words, words } from './words.ts';

export function coreText(text: string): string {
  if (currentLanguage() === 'en') return text;
  return sayCoreSentences(text, words.core, date);
}

/** A core error's message in the UI's language: the service client's sentences said again, what the service said kept as sent. */
export function coreError(message: string): string {
  if (currentLanguage() === 'en') return message;
  return sayCoreError(message, words.coreErrors);
}

/**
 * An error's message in the UI's language: a refusal with a code (shared/core-codes.ts) said
 * from it, a service client's message as `coreError` says it, any other as it came.
 */
export function errorText(e: Pick<SerializedError, 'message' | 'said'>): string {
  if (currentLanguage() === 'en') return e.message;
  return e.said ? sayCode(e.said, words.coreCodes) : coreError(e.message);
}

/** A wallets file's row problem (the import's preview) in the UI's language. */
export function rowProblem(row: Pick<WalletImportRow, 'problem' | 'problemSaid'>): string {
  if (currentLanguage() === 'en' || !row.problemSaid) return row.problem ?? '';
  return sayCode(row.problemSaid, words.coreCodes);
}

/**
 * A job's name in the UI's language, from its parts (JobInfo `title`): a wallet's name as given,
 * dates in the locale's format, a history's step and a CSV report named in words. In English the
 * core's label (the CLI's) is shown; a job without parts too.
 */
export function jobLabel(job: Pick<JobInfo, 'label' | 'title'>): string {
  const t = job.title;
  if (currentLanguage() === 'en' || !t) return job.label;
  const say = words.sync.jobTitles;
  switch (t.kind) {
    case 'positions':
      return say.positions(t.name, t.date ? date(t.date) : null);
    case 'history':
      return say.history(t.name, date(t.from), date(t.to), words.sync.steps[t.every] ?? t.every);
    case 'transactions':
      return say.transactions(t.name);
    case 'pack-pdf':
      return say.packPdf(date(t.from), date(t.to));
    case 'report-pdf':
      return say.reportPdf(date(t.date));
    case 'unlock-calendar':
      return say.unlockCalendar(date(t.date));
    case 'export-csv':
      return say.exportCsv(words.sync.csvReports[t.report] ?? t.report);
    case 'user-data':
      return say.userData(t.encrypted);
    case 'close-bundle':
      return say.closeBundle(t.id, date(t.from), date(t.to));
    default:
      return job.label;
  }
}

/**
 * A service check finding's evidence line in the UI's language: the numbers finding's counts (the
 * core's sentence, check.ts) said here, the unreadable values after it as the service sent them;
 * any other line as coreError says it.
 */
export function checkDetail(detail: string): string {
  if (currentLanguage() === 'en') return detail;
  const m = /^in (\d+) position responses: (\d+) numbers, (\d+) numeric strings, (\d+) null, (\d+) other(?:; unreadable: (.*))?$/s.exec(detail);
  if (!m) return coreError(detail);
  const [responses, numbers, strings, nulls, other] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const v = words.serviceCheck;
  return v.floatsDetail(responses, numbers, strings, nulls, other) + (m[6] === undefined ? '' : v.unreadableList(m[6]));
}

/** A service check finding's label in the UI's language, by its id (an anomaly's by its kind of id); else the core's. */
export function checkLabel(item: { id: string; label: string }): string {
  if (currentLanguage() === 'en') return item.label;
  const id = item.id.startsWith('anomaly-') ? 'anomaly' : item.id;
  return Object.hasOwn(words.serviceCheck.labels, id) ? words.serviceCheck.labels[id]! : item.label;
}

const ISO_DAY = /^(\d{4}-\d{2}-\d{2})$/;
/**
 * A service check finding's reading in the UI's language: the core's fixed readings (a
 * datetime form, "answers; key accepted"), those naming a day (the day in the locale's format),
 * a list of forms; anything else (a figure, a value the service sent) as it is.
 */
export function checkValue(value: string): string {
  if (currentLanguage() === 'en') return value;
  const v = words.serviceCheck;
  const fixed = (t: string) => (Object.hasOwn(v.values, t) ? v.values[t]! : null);
  const day = (d: string) => (ISO_DAY.test(d) ? date(d) : d);
  let m: RegExpExecArray | null;
  if (fixed(value) !== null) return fixed(value)!;
  if ((m = /^for (\S+)$/.exec(value))) return v.forDay(day(m[1]!));
  if ((m = /^filed under the day asked \((\S+)\)$/.exec(value))) return v.filedAsAsked(day(m[1]!));
  if ((m = /^the service answered for another day \((\S+)\)$/.exec(value))) return v.otherDay(day(m[1]!));
  if ((m = /^asking for (\S+) failed$/.exec(value))) return v.askingFailed(day(m[1]!));
  if ((m = /^(\d+) asked \(not proven served whole\)$/.exec(value))) return v.notProven(m[1]!);
  if ((m = /^(.+); (\d+) unreadable \(stored as unknown, flagged\)$/.exec(value))) return v.unreadable(fixed(m[1]!) ?? m[1]!, Number(m[2]));
  // Several datetime forms, comma-separated (transactions written more than one way), in a check
  // made before the forms came as codes: a form's own name may hold ", " ("ISO 8601, UTC"), so
  // the pieces are joined back, the longest known name first.
  const said = knownList(value.split(', '), fixed);
  return said ?? value;
}

/** Pieces of a ", "-separated list of fixed readings said one by one, or null when some piece is none. */
function knownList(parts: string[], fixed: (t: string) => string | null): string | null {
  if (parts.length < 2) return null;
  const out: string[] = [];
  for (let i = 0; i < parts.length;) {
    let j = parts.length;
    while (j > i && fixed(parts.slice(i, j).join(', ')) === null) j--;
    if (j === i) return null;
    out.push(fixed(parts.slice(i, j).join(', '))!);
    i = j;
  }
  return out.join(', ');
}

/** A finding's reading in the UI's language: the datetime forms it names from their codes, else as `checkValue` says it. */
export function checkReading(item: Pick<ServiceCheckItem, 'value' | 'forms'> & { evidence?: ServiceCheckItem['evidence'] }): string {
  if (currentLanguage() !== 'en' && item.evidence?.code === 'anomaly') {
    const kinds = words.serviceCheck.anomalyKinds;
    return Object.hasOwn(kinds, item.value) ? kinds[item.value]! : item.value;
  }
  if (currentLanguage() === 'en' || !item.forms?.length) return checkValue(item.value);
  const forms = words.serviceCheck.forms;
  return item.forms.map((f) => (Object.hasOwn(forms, f) ? forms[f]! : f)).join(', ');
}

/**
 * A finding's evidence in the UI's language, from its code and values (the core's check.ts): the
 * service's own words and values (a date as sent, a request ID, an unreadable value, an error's
 * message from the service) kept as sent. A check made by an older core has no code: its line as
 * `checkDetail` says it.
 */
export function checkEvidence(item: Pick<ServiceCheckItem, 'detail' | 'evidence'>): string {
  if (currentLanguage() === 'en' || !item.evidence) return checkDetail(item.detail);
  return sayEvidence(item.evidence);
}

/** A value of a convention's evidence in the UI's language: a count or "2.5 h" in the locale's figures, a unit or a kind in words. */
function evidenceValue(name: string, value: string, v: Words['serviceCheck']): string {
  const figure = (n: number) => (Number.isInteger(n) ? integer(n) : decimal(n, 0, 2));
  if (/^\d+(?:\.\d+)?$/.test(value)) return figure(Number(value));
  const h = /^(\d+(?:\.\d+)?) h$/.exec(value);
  if (h) return `${figure(Number(h[1]))} h`;
  if ((name === 'unit' || name === 'kind') && Object.hasOwn(v.evidenceValues, value)) return v.evidenceValues[value]!;
  return value;
}

/** A finding's evidence said with `v` (the UI's words; the tests hold the English ones to the core's lines). */
export function sayEvidence(e: CheckEvidence, v: Words['serviceCheck'] = words.serviceCheck): string {
  const say = v.evidence;
  switch (e.code) {
    case 'error':
      return coreError(e.message);
    case 'reached':
      return say.reached(e.wallet, e.chain, e.positions, e.ms, e.requestId);
    case 'noDateSent':
      return say.noDateSent;
    case 'dateSent':
      return say.dateSent(e.sent, e.assumedUtc);
    case 'daysDiffer':
      return say.daysDiffer(e.written, e.utc, e.requests, e.day);
    case 'daysAgree':
      return say.daysAgree;
    case 'askedNoDate':
      return say.askedNoDate(e.asked);
    case 'askedDated':
      return say.askedDated(e.asked, e.got, e.written, e.utc, e.ok);
    case 'floats': {
      const list = e.unreadable.map((u) => say.unreadableValue(u.response === 'latest' ? null : u.response, u.path, u.value));
      const counts = v.floatsDetail(e.responses, e.numbers, e.strings, e.nulls, e.other);
      return list.length ? counts + v.unreadableList(list.join(', ') + (e.more ? ', …' : '')) : counts;
    }
    case 'firstDateSent':
      return say.firstDateSent(e.sent, e.assumedUtc);
    case 'noTransactions':
      return say.noTransactions(e.wallet, e.chain);
    case 'convention':
      // The kept English line read back with its template (shared/convention-evidence.ts) and said with this language's.
      return (
        sayConventionEvidence(e.evidence, v.conventionEvidence, (name, value) => evidenceValue(name, value, v)) +
        (e.learnedAt ? say.learnedAt(e.learnedAt) : '')
      );
    case 'anomaly':
      return say.anomaly(e.detail, e.wallet, e.chain, e.at);
  }
}
