/**
 * The transactions of a period, oldest first, one at a time: the PDF report summarises and lists
 * them (every status, its dates as the timeline's filter takes them) and the monthly pack values
 * their flows (the successful ones of its window in Unix ms). One function and one row, the
 * timeline's, with the same filter (timelineWhere), so the report, the pack and the Timeline view
 * agree on what a period holds.
 */
import type { ReadableDB } from '../../store/db.ts';
import type { TimelineRow } from '../../../../shared/model.ts';
import { TIMELINE_COLUMNS, timelineWhere, toTimelineRow, type ScopedTimelineFilter } from './timeline.ts';

export interface PeriodQuery extends Pick<ScopedTimelineFilter, 'wallet' | 'wallets' | 'chains' | 'from' | 'to'> {
  /** A window in Unix ms, start <= time < end, besides (or instead of) the dates. */
  start?: number;
  end?: number;
  /** Successful transactions only. */
  succeeded?: boolean;
  /** Only these protocols, in lower case, matched in any case (a position's protocol). */
  protocolsAnyCase?: readonly string[];
}

export function* periodTransactions(db: ReadableDB, q: PeriodQuery): Generator<TimelineRow> {
  const { start, end, succeeded, protocolsAnyCase, ...filter } = q;
  const where = timelineWhere(filter);
  const terms = [where.sql];
  const params: Record<string, unknown> = { ...where.params };
  if (start !== undefined) {
    terms.push('t.time >= @periodStart');
    params['periodStart'] = start;
  }
  if (end !== undefined) {
    terms.push('t.time < @periodEnd');
    params['periodEnd'] = end;
  }
  if (succeeded) terms.push('t.status = 1');
  if (protocolsAnyCase) {
    terms.push('lower(t.protocol_id) IN (SELECT value FROM json_each(@periodProtocols))');
    params['periodProtocols'] = JSON.stringify(protocolsAnyCase);
  }
  // Its own statement, not the cache's: a statement stays busy while a generator reads it, and
  // the same text could be asked for again meanwhile.
  for (const raw of db
    .prepare(`SELECT ${TIMELINE_COLUMNS} FROM transactions t WHERE ${terms.join(' AND ')} ORDER BY t.time, t.id`)
    .iterate(params) as IterableIterator<Parameters<typeof toTimelineRow>[0]>)
    yield toTimelineRow(raw);
}
