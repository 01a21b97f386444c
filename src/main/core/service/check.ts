/**
 * The service check: a few cheap requests that show how the connected service writes what the
 * spec leaves open (datetimes, floats, snapshot dates), and whether Folioscope reads it right.
 * Settings shows the last result; `folioscope doctor` prints it and runs it again. Conventions
 * learned elsewhere (paging, time units, ordering, logs) join through `extra`.
 */

import type { ConventionsReport } from '../../../shared/conventions.ts';
import type { CheckEvidence, ServiceCheck, ServiceCheckItem } from '../../../shared/model.ts';
import { DATETIME_FORM_LABELS, datetimeForm, namesDay, parseJsonLenient, toFloat, utcDay, writtenDay } from '../../../shared/service/normalize.ts';
import { FLOAT_MEMBERS, type ValueFlag } from '../../../shared/service/schemas.ts';
import type { ServiceClient, ServiceResponse } from './client.ts';
import { latestSnapshotDay } from './snapshot-day.ts';

export interface ServiceCheckOptions {
  client: ServiceClient;
  baseUrl: string;
  mode: 'demo' | 'live';
  /** The wallet and chain to ask about (a watched one when there is one). */
  wallet: string;
  chain: string;
  now?: () => Date;
  signal?: AbortSignal;
  /** More findings, run after these (the learned paging/time/ordering/logs conventions). */
  extra?: Array<() => Promise<ServiceCheckItem[]>>;
}

/** Forms whose zone cannot be known: Folioscope assumes UTC and says so. */
const ASSUMED_UTC = new Set(['no-zone', 'space', 'date-only']);

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export async function runServiceCheck(o: ServiceCheckOptions): Promise<ServiceCheck> {
  const now = o.now ?? (() => new Date());
  let requests = 0;
  const counted = <T>(p: Promise<T>) => {
    requests++;
    return p;
  };
  const items: ServiceCheckItem[] = [];
  const q = { wallet: o.wallet, chain: o.chain };
  const result = (): ServiceCheck => ({ baseUrl: o.baseUrl, mode: o.mode, checkedAt: now().toISOString(), probe: q, requests, items });

  // 1. Reachable, key accepted.
  const started = Date.now();
  let latest: ServiceResponse<{ service_date: string | null; positions: unknown[] }>;
  try {
    latest = await counted(o.client.allPositions(q, o.signal));
  } catch (err) {
    items.push({ id: 'reach', label: 'Service', value: 'not usable', detail: messageOf(err), status: 'failed', evidence: failure(err) });
    return result();
  }
  const reached = { positions: latest.data[0]?.positions.length ?? 0, ms: Date.now() - started, requestId: latest.requestId || null };
  items.push({
    id: 'reach',
    label: 'Service',
    value: 'answers; key accepted',
    detail: `latest all_positions for ${o.wallet} on ${o.chain}: ${reached.positions} positions in ${reached.ms} ms${reached.requestId ? `, request ID ${reached.requestId}` : ''}`,
    status: 'ok',
    evidence: { code: 'reached', wallet: o.wallet, chain: o.chain, ...reached },
  });

  // 2. How snapshot datetimes are written.
  const sent = latest.data[0]?.service_date ?? null;
  const form = sent === null ? null : datetimeForm(sent);
  items.push({
    id: 'datetime-snapshot',
    label: 'Datetimes (snapshots)',
    value: form ? (DATETIME_FORM_LABELS[form] ?? form) : 'no date sent',
    detail:
      sent === null
        ? 'The latest snapshot carried no date: it is filed under the day asked, or the fetch day.'
        : `date sent: ${sent}${form && ASSUMED_UTC.has(form) ? '. Nothing says its zone: Folioscope reads it as UTC.' : ''}`,
    status: form === null ? 'note' : ASSUMED_UTC.has(form) ? 'note' : 'ok',
    evidence: sent === null ? { code: 'noDateSent' } : { code: 'dateSent', sent, assumedUtc: !!form && ASSUMED_UTC.has(form) },
    ...(form ? { forms: [form] } : {}),
  });

  // 3. The day the latest snapshot is for, and 4. where a dated snapshot is filed.
  let latestDay: string | undefined;
  try {
    const before = requests;
    latestDay = await latestSnapshotDay({ ...o.client, allPositions: (qq, s) => counted(o.client.allPositions(qq, s)) }, q, sent, o.signal);
    const written = sent === null ? null : writtenDay(sent);
    const utc = sent === null ? null : utcDay(sent);
    items.push({
      id: 'latest-day',
      label: 'Latest snapshot (no date asked)',
      value: latestDay ? `for ${latestDay}` : 'day unknown (filed under the fetch day)',
      detail:
        written && utc && written !== utc
          ? `the day written (${written}) and the UTC day (${utc}) differ: asked the service for each (${requests - before} request${requests - before === 1 ? '' : 's'}); ${latestDay ? `${latestDay} answers` : 'no day answers'} with the same datetime`
          : 'the day written and the UTC day agree',
      status: latestDay ? 'ok' : 'note',
      evidence:
        written && utc && written !== utc ? { code: 'daysDiffer', written, utc, requests: requests - before, day: latestDay ?? null } : { code: 'daysAgree' },
    });
  } catch (err) {
    items.push({
      id: 'latest-day',
      label: 'Latest snapshot (no date asked)',
      value: 'could not be resolved',
      detail: messageOf(err),
      status: 'warning',
      evidence: failure(err),
    });
  }
  const asked = addDays(latestDay ?? now().toISOString().slice(0, 10), -7);
  let dated: ServiceResponse<{ service_date: string | null; positions: unknown[] }> | null = null;
  try {
    dated = await counted(o.client.allPositions({ ...q, date: asked }, o.signal));
    const got = dated.data[0]?.service_date ?? null;
    const ok = got === null || namesDay(got, asked);
    items.push({
      id: 'dated-snapshot',
      label: 'Snapshot for a date',
      value: ok ? `filed under the day asked (${asked})` : `the service answered for another day (${writtenDay(got)})`,
      detail:
        got === null
          ? `asked ${asked}; no date in the answer`
          : `asked ${asked}; the service dated it ${got} (written day ${writtenDay(got)}, UTC day ${utcDay(got)})${ok ? '' : '. Filed under the day the service wrote, with a data-quality note.'}`,
      status: ok ? 'ok' : 'warning',
      evidence: got === null ? { code: 'askedNoDate', asked } : { code: 'askedDated', asked, got, written: writtenDay(got), utc: utcDay(got), ok },
    });
  } catch (err) {
    items.push({
      id: 'dated-snapshot',
      label: 'Snapshot for a date',
      value: `asking for ${asked} failed`,
      detail: messageOf(err),
      status: 'warning',
      evidence: failure(err),
    });
  }

  // 5. How floats are written, and whether any could not be read.
  const bodies = [latest, ...(dated ? [dated] : [])];
  const counts = { number: 0, string: 0, null: 0, other: 0 };
  for (const r of bodies) countFloats(parseBody(r.body), counts);
  const flags: Array<ValueFlag & { response: string }> = [
    ...(latest.flags ?? []).map((f) => ({ ...f, response: 'latest' })),
    ...(dated?.flags ?? []).map((f) => ({ ...f, response: asked })),
  ];
  const kinds = [counts.number && 'numbers', counts.string && 'numeric strings'].filter(Boolean).join(' and ') || 'none seen';
  items.push({
    id: 'floats',
    label: 'Numbers',
    value: flags.length ? `${kinds}; ${flags.length} unreadable (stored as unknown, flagged)` : kinds,
    detail:
      `in ${bodies.length} position responses: ${counts.number} numbers, ${counts.string} numeric strings, ${counts.null} null, ${counts.other} other` +
      (flags.length
        ? `; unreadable: ${flags
            .slice(0, 3)
            .map((f) => `${f.response} ${f.path} = ${f.value}`)
            .join(', ')}${flags.length > 3 ? ', …' : ''}`
        : ''),
    status: flags.length ? 'warning' : 'ok',
    evidence: {
      code: 'floats',
      responses: bodies.length,
      numbers: counts.number,
      strings: counts.string,
      nulls: counts.null,
      other: counts.other,
      unreadable: flags.slice(0, 3).map((f) => ({ response: f.response, path: f.path, value: f.value })),
      more: flags.length > 3,
    },
  });

  // 6. How transaction datetimes are written.
  try {
    const txns = await counted(o.client.transactionsByWallet({ ...q, pageSize: 5 }, o.signal));
    const raw = parseBody(txns.body) as { data?: Array<{ transaction_history?: Array<{ date?: unknown }> }> } | undefined;
    const dates = (raw?.data?.[0]?.transaction_history ?? []).map((t) => t.date).filter((d) => d !== undefined && d !== null);
    const forms = [...new Set(dates.map((d) => datetimeForm(d) ?? 'unreadable'))];
    items.push({
      id: 'datetime-transactions',
      label: 'Datetimes (transactions)',
      value: forms.length ? forms.map((f) => DATETIME_FORM_LABELS[f] ?? f).join(', ') : 'no transactions to judge',
      detail: dates.length
        ? `first date sent: ${String(dates[0])}${forms.some((f) => ASSUMED_UTC.has(f)) ? '. Nothing says its zone: Folioscope reads it as UTC.' : ''}`
        : `no transactions for ${o.wallet} on ${o.chain}`,
      status: forms.includes('unreadable') ? 'warning' : forms.some((f) => ASSUMED_UTC.has(f)) || !forms.length ? 'note' : 'ok',
      evidence: dates.length
        ? { code: 'firstDateSent', sent: String(dates[0]), assumedUtc: forms.some((f) => ASSUMED_UTC.has(f)) }
        : { code: 'noTransactions', wallet: o.wallet, chain: o.chain },
      forms,
    });
  } catch (err) {
    items.push({
      id: 'datetime-transactions',
      label: 'Datetimes (transactions)',
      value: 'could not be read',
      detail: messageOf(err),
      status: 'warning',
      evidence: failure(err),
    });
  }

  for (const more of o.extra ?? []) {
    try {
      items.push(...(await more()));
    } catch (err) {
      items.push({ id: 'extra', label: 'Conventions', value: 'check failed', detail: messageOf(err), status: 'warning', evidence: failure(err) });
    }
  }
  return result();
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return parseJsonLenient(body);
  }
}

function countFloats(v: unknown, counts: { number: number; string: number; null: number; other: number }): void {
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) countFloats(x, counts);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (FLOAT_MEMBERS.has(k)) {
      if (typeof x === 'number' && Number.isFinite(x)) counts.number++;
      else if (typeof x === 'string' && typeof toFloat(x) === 'number') counts.string++;
      else if (x === null) counts.null++;
      else counts.other++;
    } else countFloats(x, counts);
  }
}

/**
 * The learned conventions (paging, time units, ordering, logs; learned during syncs and by
 * `service.check`) as findings of the service check, with their unresolved anomalies.
 */
export function conventionItems(report: ConventionsReport): ServiceCheckItem[] {
  const items: ServiceCheckItem[] = report.points.map((p) => ({
    id: `convention-${p.key}`,
    label: p.label,
    value: p.value,
    detail: `${p.evidence}${p.learnedAt ? ` (learned ${p.learnedAt.slice(0, 16).replace('T', ' ')} UTC)` : ''}`,
    status: p.status === 'learned' ? 'ok' : p.status === 'assumed' ? 'note' : 'warning',
    evidence: { code: 'convention', evidence: p.evidence, learnedAt: p.learnedAt },
  }));
  for (const a of report.anomalies.filter((x) => !x.resolvedAt))
    items.push({
      id: `anomaly-${a.id}`,
      label: 'Anomaly',
      value: a.kind,
      detail: `${a.detail}${a.wallet ? ` (${a.wallet}${a.chain ? ` on ${a.chain}` : ''})` : ''}, ${a.at.slice(0, 16).replace('T', ' ')} UTC`,
      status: 'warning',
      evidence: { code: 'anomaly', detail: a.detail, wallet: a.wallet, chain: a.chain, at: a.at },
    });
  return items;
}

/** What a failed probe says: the service's errors carry their own plain message (the key already redacted). */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const failure = (err: unknown): CheckEvidence => ({ code: 'error', message: messageOf(err) });
