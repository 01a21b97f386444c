/**
 * The people's tables (migration 27): SQL only. The rules (names, roles, the lock-out, the
 * session limits) are people.ts's.
 */
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql, sqlCode, sqlJoin, value, type SqlValue } from '../../store/sql.ts';

export interface PersonRow {
  name: string;
  role: string;
  password: string;
  created_at: number;
  password_changed_at: number;
  disabled_at: number | null;
  /** Migration 29: the provider's issuer and subject of the person's linked account, or both NULL. */
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

export function personRow(db: ReadableDB, name: string): PersonRow | undefined {
  return get<PersonRow>(db, sql`SELECT * FROM people WHERE name = ${name}`);
}

export function personRows(db: ReadableDB): PersonRow[] {
  return all<PersonRow>(db, sql`SELECT * FROM people ORDER BY name COLLATE NOCASE`);
}

export function countPeople(db: ReadableDB): number {
  return value<number>(db, sql`SELECT count(*) FROM people`) ?? 0;
}

export function insertPerson(db: WritableDB, p: { name: string; role: string; password: string; at: number }): void {
  run(db, sql`INSERT INTO people (name, role, password, created_at, password_changed_at) VALUES (${p.name}, ${p.role}, ${p.password}, ${p.at}, ${p.at})`);
}

export function updateRole(db: WritableDB, name: string, role: string): void {
  run(db, sql`UPDATE people SET role = ${role} WHERE name = ${name}`);
}

export function updatePassword(db: WritableDB, name: string, password: string, at: number): void {
  run(db, sql`UPDATE people SET password = ${password}, password_changed_at = ${at} WHERE name = ${name}`);
}

/** The person linked to `subject` at `issuer` (exactly as the provider spells both), if any. */
export function personByOidc(db: ReadableDB, issuer: string, subject: string): PersonRow | undefined {
  return get<PersonRow>(db, sql`SELECT * FROM people WHERE oidc_issuer = ${issuer} AND oidc_subject = ${subject}`);
}

export function updateOidc(db: WritableDB, name: string, link: { issuer: string; subject: string } | null): void {
  run(db, sql`UPDATE people SET oidc_issuer = ${link?.issuer ?? null}, oidc_subject = ${link?.subject ?? null} WHERE name = ${name}`);
}

export function updateDisabled(db: WritableDB, name: string, at: number | null): void {
  run(db, sql`UPDATE people SET disabled_at = ${at} WHERE name = ${name}`);
}

// Sessions

export interface SessionRow {
  id_hash: string;
  person: string;
  created_at: number;
  last_seen: number;
}

export function insertSession(db: WritableDB, s: { idHash: string; person: string; at: number }): void {
  run(db, sql`INSERT INTO people_sessions (id_hash, person, created_at, last_seen) VALUES (${s.idHash}, ${s.person}, ${s.at}, ${s.at})`);
}

export function sessionRow(db: ReadableDB, idHash: string): SessionRow | undefined {
  return get<SessionRow>(db, sql`SELECT * FROM people_sessions WHERE id_hash = ${idHash}`);
}

export function touchSession(db: WritableDB, idHash: string, at: number): void {
  run(db, sql`UPDATE people_sessions SET last_seen = ${at} WHERE id_hash = ${idHash}`);
}

export function deleteSession(db: WritableDB, idHash: string): void {
  run(db, sql`DELETE FROM people_sessions WHERE id_hash = ${idHash}`);
}

/** Every session of a person ended; the ids (hashed) of those ended. */
export function deleteSessionsOf(db: WritableDB, person: string): string[] {
  const ids = all<{ id_hash: string }>(db, sql`SELECT id_hash FROM people_sessions WHERE person = ${person}`).map((r) => r.id_hash);
  run(db, sql`DELETE FROM people_sessions WHERE person = ${person}`);
  return ids;
}

/** A person's sessions but the `keep` most recently used, ended (a session id ties last use to the newer). */
export function deleteSessionsBeyond(db: WritableDB, person: string, keep: number): void {
  run(
    db,
    sql`DELETE FROM people_sessions WHERE person = ${person} AND id_hash NOT IN (
          SELECT id_hash FROM people_sessions WHERE person = ${person} ORDER BY last_seen DESC, created_at DESC, id_hash LIMIT ${keep})`,
  );
}

/** Sessions past either limit, removed as others are made (so the table does not grow with every sign-in). */
export function deleteStaleSessions(db: WritableDB, o: { createdBefore: number; seenBefore: number }): void {
  run(db, sql`DELETE FROM people_sessions WHERE created_at < ${o.createdBefore} OR last_seen < ${o.seenBefore}`);
}

// API tokens

export interface TokenRow {
  id: number;
  token_hash: string;
  person: string;
  role: string;
  label: string;
  created_at: number;
  last_used_at: number | null;
}

export function insertToken(db: WritableDB, t: { tokenHash: string; person: string; role: string; label: string; at: number }): number {
  return Number(
    run(db, sql`INSERT INTO people_tokens (token_hash, person, role, label, created_at) VALUES (${t.tokenHash}, ${t.person}, ${t.role}, ${t.label}, ${t.at})`)
      .lastInsertRowid,
  );
}

export function tokenRow(db: ReadableDB, tokenHash: string): TokenRow | undefined {
  return get<TokenRow>(db, sql`SELECT * FROM people_tokens WHERE token_hash = ${tokenHash}`);
}

export function tokenRows(db: ReadableDB, person: string): TokenRow[] {
  return all<TokenRow>(db, sql`SELECT * FROM people_tokens WHERE person = ${person} ORDER BY id`);
}

export function touchToken(db: WritableDB, id: number, at: number): void {
  run(db, sql`UPDATE people_tokens SET last_used_at = ${at} WHERE id = ${id}`);
}

export function deleteToken(db: WritableDB, person: string, id: number): boolean {
  return run(db, sql`DELETE FROM people_tokens WHERE person = ${person} AND id = ${id}`).changes === 1;
}

// Sign-in attempts

export function insertAttempt(db: WritableDB, a: { name: string; address: string; at: number; ok: boolean }): number {
  return Number(
    run(db, sql`INSERT INTO people_sign_in_attempts (name, address, at, ok) VALUES (${a.name}, ${a.address}, ${a.at}, ${a.ok ? 1 : 0})`).lastInsertRowid,
  );
}

/** An attempt written as failed before its password was checked, found good. */
export function markAttemptGood(db: WritableDB, id: number): void {
  run(db, sql`UPDATE people_sign_in_attempts SET ok = 1 WHERE id = ${id}`);
}

export function deleteAttempt(db: WritableDB, id: number): void {
  run(db, sql`DELETE FROM people_sign_in_attempts WHERE id = ${id}`);
}

/** Failed attempts for a name since `since`, after its last good one: newest first. */
export function failuresOfName(db: ReadableDB, name: string, since: number): number[] {
  return all<{ at: number }>(
    db,
    sql`SELECT at FROM people_sign_in_attempts
        WHERE name = ${name} AND ok = 0 AND at > ${since}
          AND at > coalesce((SELECT max(at) FROM people_sign_in_attempts WHERE name = ${name} AND ok = 1), -1)
        ORDER BY at DESC`,
  ).map((r) => r.at);
}

/** Failed attempts from an address since `since`: newest first. */
export function failuresOfAddress(db: ReadableDB, address: string, since: number): number[] {
  return all<{ at: number }>(db, sql`SELECT at FROM people_sign_in_attempts WHERE address = ${address} AND ok = 0 AND at > ${since} ORDER BY at DESC`).map(
    (r) => r.at,
  );
}

export function deleteAttemptsBefore(db: WritableDB, at: number): void {
  run(db, sql`DELETE FROM people_sign_in_attempts WHERE at < ${at}`);
}

/**
 * The people's secrets taken out of a copy of the books a desktop downloads (a team server's
 * replica, store/replica-files.ts): every session, API token and sign-in attempt deleted, and each
 * password hash blanked. The names and roles stay: the audit trail names the people. Each
 * person's own display goes too: it is theirs, not the books', and the copy reads without a
 * person (it shows the books' display).
 */
export function scrubSecrets(db: WritableDB): void {
  run(db, sql`DELETE FROM people_settings`);
  run(db, sql`DELETE FROM people_sessions`);
  run(db, sql`DELETE FROM people_tokens`);
  run(db, sql`DELETE FROM people_sign_in_attempts`);
  run(db, sql`UPDATE people SET password = ''`);
}

// The tables whole (a restore carries them across: people.ts `peopleKeeper`)

/** Parents before children: people first, their sessions, tokens, attempts and display after. */
const PEOPLE_TABLES = ['people', 'people_sessions', 'people_tokens', 'people_sign_in_attempts', 'people_settings'] as const;
export type PeopleTables = Record<(typeof PEOPLE_TABLES)[number], Array<Record<string, SqlValue>>>;

export function readPeopleTables(db: ReadableDB): PeopleTables {
  const out = {} as PeopleTables;
  for (const t of PEOPLE_TABLES) out[t] = all<Record<string, SqlValue>>(db, sql`SELECT * FROM ${sqlCode(t)}`);
  return out;
}

/**
 * Puts `tables` in place of these tables' rows, every column the destination has (both are at
 * this version's schema: a restored file is migrated when it opens). In the caller's transaction.
 */
export function replacePeopleTables(db: WritableDB, tables: PeopleTables): void {
  for (const t of [...PEOPLE_TABLES].reverse()) run(db, sql`DELETE FROM ${sqlCode(t)}`);
  for (const t of PEOPLE_TABLES) {
    const columns = new Set(all<{ name: string }>(db, sql`SELECT name FROM pragma_table_info(${t})`).map((c) => c.name));
    for (const row of tables[t]) {
      const names = Object.keys(row).filter((c) => columns.has(c));
      run(db, sql`INSERT INTO ${sqlCode(t)} (${sqlCode(names.map((n) => `"${n}"`).join(', '))}) VALUES (${sqlJoin(names.map((n) => row[n]!))})`);
    }
  }
}
