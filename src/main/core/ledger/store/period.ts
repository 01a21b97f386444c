/**
 * The transactions of a report's period, oldest first, one at a time: the PDF report summarises
 * and lists them without holding the whole period in memory. The same filter as the timeline
 * (timelineWhere), so a report and the Timeline view agree on what a period holds.
 */
import type { ReadableDB } from '../../store/db.ts';
import type { TimelineFilter } from '../../../../shared/contract.ts';
import type { TimelineRow } from '../../../../shared/model.ts';
import { TIMELINE_COLUMNS, timelineWhere, toTimelineRow } from './timeline.ts';

export function* periodTransactions(db: ReadableDB, filter: Pick<TimelineFilter, 'wallet' | 'from' | 'to'>): Generator<TimelineRow> {
  const { sql, params } = timelineWhere(filter);
  for (const raw of db.prepare(`SELECT ${TIMELINE_COLUMNS} FROM transactions t WHERE ${sql} ORDER BY t.time, t.id`).iterate(params) as IterableIterator<
    Parameters<typeof toTimelineRow>[0]
  >)
    yield toTimelineRow(raw);
}
