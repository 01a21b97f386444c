/** Scheduled syncs and the lease that lets one process run them at a time (migration 013). */
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { all, get, run, sql } from '../../store/sql.ts';
import { ValidationError } from '../../store/validation.ts';
import { recordEdit } from '../../store/audit.ts';
import { checkVersion, versionsOf } from '../../store/versions.ts';
import { getSettings } from '../../store/settings.ts';
import type { Cadence, Schedule, ScheduleScope } from '../../../../shared/model.ts';

/** A schedule as the cache keeps it: what the contract shows, but its next slot (computed when shown). */
export type StoredSchedule = Omit<Schedule, 'nextSlot'>;

interface Row {
  id: number;
  scope: string;
  what: StoredSchedule['what'];
  cadence: string;
  zone: StoredSchedule['zone'];
  created_at: string;
  last_slot: string | null;
  last_run: string | null;
}

const fromRow = (r: Row): StoredSchedule => ({
  id: r.id,
  scope: JSON.parse(r.scope) as ScheduleScope,
  what: r.what,
  cadence: JSON.parse(r.cadence) as Cadence,
  zone: r.zone,
  createdAt: r.created_at,
  lastSlot: r.last_slot,
  lastRun: r.last_run ? (JSON.parse(r.last_run) as StoredSchedule['lastRun']) : null,
});

export function listSchedules(db: ReadableDB): StoredSchedule[] {
  return all<Row>(db, sql`SELECT id, scope, what, cadence, zone, created_at, last_slot, last_run FROM schedules ORDER BY id`).map(fromRow);
}

/** The schedules as a screen edits them: each with its version (store/versions.ts). */
export function schedulesWithVersions(db: ReadableDB): StoredSchedule[] {
  const versions = versionsOf(db, 'schedule');
  return listSchedules(db).map((s) => ({ ...s, version: versions.get(String(s.id)) ?? 0 }));
}

/** A new schedule, or a changed one (its slot history kept: a change does not run it again at once). */
export function saveSchedule(
  db: WritableDB,
  input: {
    id?: number | undefined;
    scope: ScheduleScope;
    what: StoredSchedule['what'];
    cadence: Cadence;
    zone?: StoredSchedule['zone'] | undefined;
    expectedVersion?: number | undefined;
  },
  now = new Date(),
): StoredSchedule {
  return db.transaction(() => {
    const before = input.id === undefined ? null : (listSchedules(db).find((s) => s.id === input.id) ?? null);
    if (input.id !== undefined) checkVersion(db, 'schedule', String(input.id), `#${input.id}`, input.expectedVersion, before !== null);
    // Given no zone: an edit keeps the schedule's, a new one takes the display setting's now and
    // keeps it (the setting may change; the schedule does not move).
    const zone = input.zone ?? before?.zone ?? getSettings(db).timeZone;
    const values = { scope: JSON.stringify(input.scope), what: input.what, cadence: JSON.stringify(input.cadence), zone };
    const id = writeSchedule(db, input.id, values, now);
    const after = listSchedules(db).find((s) => s.id === id)!;
    const shown = (s: StoredSchedule | null) => s && { id: s.id, scope: s.scope, what: s.what, cadence: s.cadence, zone: s.zone };
    recordEdit(db, { entity: 'schedule', key: String(id), action: before ? 'update' : 'create', before: shown(before), after: shown(after) });
    return after;
  })();
}

function writeSchedule(
  db: WritableDB,
  given: number | undefined,
  { scope, what, cadence, zone }: { scope: string; what: string; cadence: string; zone: string },
  now: Date,
): number {
  let id = given;
  if (id === undefined) {
    id = Number(
      run(db, sql`INSERT INTO schedules (scope, what, cadence, zone, created_at) VALUES (${scope}, ${what}, ${cadence}, ${zone}, ${now.toISOString()})`)
        .lastInsertRowid,
    );
  } else if (run(db, sql`UPDATE schedules SET scope = ${scope}, what = ${what}, cadence = ${cadence}, zone = ${zone} WHERE id = ${id}`).changes === 0) {
    throw new ValidationError('id', `There is no schedule ${id}.`);
  }
  return id;
}

export function removeSchedule(db: WritableDB, id: number, expectedVersion?: number): boolean {
  return db.transaction(() => {
    const before = listSchedules(db).find((s) => s.id === id);
    checkVersion(db, 'schedule', String(id), `#${id}`, expectedVersion, before !== undefined);
    if (!before) return false;
    run(db, sql`DELETE FROM schedules WHERE id = ${id}`);
    recordEdit(db, {
      entity: 'schedule',
      key: String(id),
      action: 'delete',
      before: { id, scope: before.scope, what: before.what, cadence: before.cadence },
      after: null,
    });
    return true;
  })();
}

/** Records a run: the slot it was for (so it is not run again) and how it ended. */
export function recordScheduleRun(db: WritableDB, id: number, slot: string, outcome: NonNullable<StoredSchedule['lastRun']>): void {
  run(db, sql`UPDATE schedules SET last_slot = ${slot}, last_run = ${JSON.stringify(outcome)} WHERE id = ${id}`);
}

/**
 * Takes (or renews) the lease until `untilMs` for `holder`: granted when no one holds it, the
 * holder is this one, or the last holder's lease has run out. In one immediate transaction,
 * so two processes asking at once cannot both be granted it.
 */
export function takeScheduleLease(
  db: WritableDB,
  holder: string,
  nowMs: number,
  untilMs: number,
): { granted: boolean; heldBy: string | null; untilMs: number | null } {
  return db
    .transaction(() => {
      const row = get<{ holder: string; until_ms: number }>(db, sql`SELECT holder, until_ms FROM schedule_lease WHERE id = 1`);
      if (row && row.holder !== holder && row.until_ms > nowMs) return { granted: false, heldBy: row.holder, untilMs: row.until_ms };
      run(
        db,
        sql`INSERT INTO schedule_lease (id, holder, until_ms) VALUES (1, ${holder}, ${untilMs})
            ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms`,
      );
      return { granted: true, heldBy: holder, untilMs };
    })
    .immediate();
}

export function releaseScheduleLease(db: WritableDB, holder: string): void {
  run(db, sql`DELETE FROM schedule_lease WHERE id = 1 AND holder = ${holder}`);
}
