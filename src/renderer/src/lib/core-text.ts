/**
 * The core's sentences a view shows as they come (a reconciliation's problems, a pack's
 * reasons, written in English for the CLI, the PDF and the CSV), said in the UI's language when
 * it is not English: each known sentence (src/shared/core-sentences.ts, which the PDFs use too)
 * is found in the text and written again from words.core, its dates in the locale's format. A
 * sentence not known there stays as it is.
 */
import { sayCoreError, sayCoreSentences } from '../../../shared/core-sentences.ts';
import type { JobInfo } from '../../../shared/model.ts';
import { date } from './format.ts';
import { currentLanguage, words } from './words.ts';

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
  // Several datetime forms, comma-separated (transactions written more than one way).
  const parts = value.split(', ');
  if (parts.length > 1 && parts.every((p) => fixed(p) !== null)) return parts.map((p) => fixed(p)).join(', ');
  return value;
}
