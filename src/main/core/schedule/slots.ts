/**
 * When a schedule's runs fall: its slots, in the settings' time zone (UTC, or the computer's
 * own, where a day may be 23 or 25 hours long). Pure: the clock is passed in.
 */
import type { Cadence } from '../../../shared/model.ts';

export type Zone = 'utc' | 'local';

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

function partsOf(ms: number, zone: Zone): Parts {
  const d = new Date(ms);
  return zone === 'utc'
    ? { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), weekday: d.getUTCDay() }
    : { year: d.getFullYear(), month: d.getMonth(), day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), weekday: d.getDay() };
}

/** The instant of a wall-clock time in the zone (Date normalises a day or hour out of range). */
function at(zone: Zone, year: number, month: number, day: number, hour: number, minute: number): number {
  return zone === 'utc' ? Date.UTC(year, month, day, hour, minute) : new Date(year, month, day, hour, minute).getTime();
}

/** The newest slot at or before `nowMs`. */
export function latestSlot(c: Cadence, nowMs: number, zone: Zone): number {
  const p = partsOf(nowMs, zone);
  if (c.every === 'hour') {
    const t = at(zone, p.year, p.month, p.day, p.hour, c.minute);
    return t <= nowMs ? t : t - 3_600_000;
  }
  // Back day by day (at most a week) to the newest day, of the right weekday, whose time has come.
  for (let back = 0; back <= 7; back++) {
    const t = at(zone, p.year, p.month, p.day - back, c.hour, c.minute);
    const weekday = partsOf(t, zone).weekday;
    if (t <= nowMs && (c.every === 'day' || weekday === c.weekday)) return t;
  }
  throw new Error('unreachable: a week always holds a slot');
}

/** The first slot after `afterMs`. */
export function nextSlot(c: Cadence, afterMs: number, zone: Zone): number {
  if (c.every === 'hour') return latestSlot(c, afterMs, zone) + 3_600_000;
  const p = partsOf(afterMs, zone);
  for (let ahead = 0; ahead <= 8; ahead++) {
    const t = at(zone, p.year, p.month, p.day + ahead, c.hour, c.minute);
    if (t > afterMs && (c.every === 'day' || partsOf(t, zone).weekday === c.weekday)) return t;
  }
  throw new Error('unreachable: a week always holds a slot');
}

/**
 * The slot a schedule should run now, or null: the newest slot that has come, if it is after
 * both the slot last run and the schedule's making (a schedule made at 10:00 for 09:00 daily
 * first runs tomorrow). However many slots were missed, this is one run.
 */
export function dueSlot(c: Cadence, o: { nowMs: number; zone: Zone; createdMs: number; lastSlotMs: number | null }): number | null {
  const slot = latestSlot(c, o.nowMs, o.zone);
  if (slot <= o.createdMs) return null;
  if (o.lastSlotMs !== null && slot <= o.lastSlotMs) return null;
  return slot;
}

/** In words, for lists and the CLI: "every hour at :05", "every day at 09:00 UTC", "every Monday at 07:30 local time". */
export function describeCadence(c: Cadence, zone: Zone): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const tz = zone === 'utc' ? 'UTC' : 'local time';
  if (c.every === 'hour') return `every hour at :${two(c.minute)}`;
  const time = `${two(c.hour)}:${two(c.minute)} ${tz}`;
  if (c.every === 'day') return `every day at ${time}`;
  const day = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][c.weekday]!;
  return `every ${day} at ${time}`;
}
