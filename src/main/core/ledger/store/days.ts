import type { ReadableDB } from '../../store/db.ts';
import { prepare } from '../../store/sql.ts';
import type { TimelineDays, TimelinePosition } from '../../../../shared/contract.ts';
import { unwatchedWallets } from './export.ts';
import { encodeCursor, type ScopedTimelineFilter, timelineWhere, withNamedSearch } from './timeline.ts';
import { zoneDays } from './zone-days.ts';

/**
 * The timeline's days under its filters (`timeline.days`) and the place of a date in it
 * (`timeline.position`): what lets the renderer show a list of any length, placing each row by
 * arithmetic and reading any of them from the nearest day, without reading the rows before it.
 *
 * The rows with no date (time 0: the service sent none) are a day of their own, 'unknown', where
 * the timeline's order puts them (after every dated row, before any dated before 1970).
 */

/** The label of the rows without a date (the renderer's `dayOf(null)`). */
export const UNKNOWN_DAY = 'unknown';
/** Past every time a row can hold: the bound above the newest day. */
const TOP = Number.MAX_SAFE_INTEGER;

/**
 * How the store counts and walks a filter's rows by time: the newest time below a bound, and
 * how many rows lie in a range of times. Every wallet's rows need no wallet term when every
 * cached row is a watched wallet's (the usual case): the filter's index then answers alone
 * (an action type's, or the time index, which carries the other filter columns), not a table
 * seek per row. Otherwise, with no other filter, the rows of wallets no longer watched are
 * taken off per range (a wallet index range each), as the export counts (exportWhere).
 */
function timeWalk(db: ReadableDB, filter: ScopedTimelineFilter) {
  const everyWallet = !filter.wallet && !filter.wallets;
  const unwatched = everyWallet ? unwatchedWallets(db) : [];
  const { sql, params } = timelineWhere(filter, { allWatched: everyWallet && !unwatched.length });
  const newest = prepare(db, `SELECT t.time FROM transactions t WHERE ${sql} AND t.time < @below ORDER BY t.time DESC, t.id DESC LIMIT 1`, 'pluck');
  const newestBelow = (below: number) => newest.get({ ...params, below }) as number | undefined;
  let between: (lo: number, hi: number) => number;
  if (!unwatched.length || sql !== timelineWhere({}).sql) {
    const count = prepare(db, `SELECT count(*) FROM transactions t WHERE ${sql} AND t.time >= @lo AND t.time < @hi`, 'pluck');
    between = (lo, hi) => count.get({ ...params, lo, hi }) as number;
  } else {
    const all = prepare(db, 'SELECT count(*) FROM transactions INDEXED BY transactions_by_time WHERE time >= ? AND time < ?', 'pluck');
    const of = prepare(db, 'SELECT count(*) FROM transactions WHERE wallet = ? AND time >= ? AND time < ?', 'pluck');
    between = (lo, hi) => unwatched.reduce((n, w) => n - (of.get(w, lo, hi) as number), all.get(lo, hi) as number);
  }
  // Every matching time, newest first: for a search, whose matches are few and found by
  // several indexes at once (hash, from, to), where a range count per day would look them up again each day.
  const times = () =>
    prepare(db, `SELECT t.time FROM transactions t WHERE ${sql} ORDER BY t.time DESC, t.id DESC`, 'pluck').iterate(params) as Iterable<number>;
  return { newestBelow, between, times, searched: !!(filter.search?.trim() || filter.named) };
}

/** The day a row's time falls on, and the first time of that day (a dated day never holds time 0). */
function dayAt(days: ReturnType<typeof zoneDays>, time: number): { day: string; start: number } {
  if (time === 0) return { day: UNKNOWN_DAY, start: 0 };
  const day = days.dayOf(time);
  const start = days.startOf(day);
  return { day, start: time > 0 && start <= 0 ? 1 : start };
}

/**
 * How many rows the filters match on each day of `zone`, newest day first, with the cursor that
 * reads each day from its newest row. Without a search: per day, the newest time below the day
 * before (an index seek) and a count of the day's range (an index range): two statements a day
 * with rows, however many days lie empty between. With a search: its matching times in one walk.
 */
export function timelineDays(db: ReadableDB, asked: ScopedTimelineFilter, zone: string): TimelineDays {
  const filter = withNamedSearch(db, asked);
  const walk = timeWalk(db, filter);
  const days = zoneDays(zone);
  const out: TimelineDays['days'] = [];
  let total = 0;
  if (walk.searched) {
    let start = TOP;
    for (const time of walk.times()) {
      if (time < start) {
        const at = dayAt(days, time);
        start = at.start;
        out.push({ day: at.day, count: 0, cursor: encodeCursor(time + 1, 0) });
      }
      out[out.length - 1]!.count++;
      total++;
    }
    return { days: out, total };
  }
  for (let below = TOP, time = walk.newestBelow(below); time !== undefined; time = walk.newestBelow(below)) {
    const at = dayAt(days, time);
    // Nothing matches between the day's newest row and `below`: the count may run up to it.
    const count = walk.between(at.start, below);
    out.push({ day: at.day, count, cursor: encodeCursor(time + 1, 0) });
    total += count;
    below = at.start;
  }
  return { days: out, total };
}

/**
 * Where `date` (a day of `zone`) is in the timeline under the filters: how many matching rows
 * are newer than its end (a count of that range), and the day and cursor of the first row on or
 * before it (one index seek). A date past the newest row is at 0; one before the oldest has no row.
 */
export function timelinePosition(db: ReadableDB, asked: ScopedTimelineFilter, date: string, zone: string): TimelinePosition {
  const filter = withNamedSearch(db, asked);
  const walk = timeWalk(db, filter);
  const days = zoneDays(zone);
  // The first instant after the date: the start of the next day.
  const end = days.startOf(new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
  let index = 0;
  let time: number | undefined;
  if (walk.searched) {
    for (const t of walk.times()) {
      if (t < end) {
        time = t;
        break;
      }
      index++;
    }
  } else {
    index = walk.between(end, TOP);
    time = walk.newestBelow(end);
  }
  if (time === undefined) return { index, day: null, cursor: null };
  return { index, day: dayAt(days, time).day, cursor: encodeCursor(time + 1, 0) };
}
