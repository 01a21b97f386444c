import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import type { Core } from '../../src/main/core/app.ts';
import { migrate, openDatabase, schemaVersion, type WritableDB } from '../../src/main/core/store/db.ts';

/**
 * What a test makes is removed after that test; what a beforeAll makes (no test is running),
 * after the file's last test. Removed after the first test instead, it left the rest of a
 * suite running on a deleted cache: SQLite kept the unlinked file open, and a second
 * connection (the write worker) made a new, empty one in its place.
 */
interface Made {
  dirs: string[];
  open: WritableDB[];
}
const byTest: Made = { dirs: [], open: [] };
const bySuite: Made = { dirs: [], open: [] };
const made = (): Made => (expect.getState().currentTestName === undefined ? bySuite : byTest);

/** A fresh temporary folder, removed after the test (or, made in a beforeAll, after the file's tests). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folioscope-test-'));
  made().dirs.push(dir);
  return dir;
}

/**
 * A real SQLite cache in a temporary folder (WAL needs a file), opened as the app opens one
 * (`openDatabase`: its pragmas, its checks, its migrations) and closed after the test. Its file
 * is `db.name`. `{ version: n }` migrates it only up to schema n, for the tests of migration
 * n + 1 (after Signal-Desktop's test-node/sql/migration_* tests): made at n, old-shape rows
 * inserted, `updateToVersion(db, n + 1)`, then the assertions.
 */
export function createDB(options: { version?: number | undefined } = {}): WritableDB {
  const db = openDatabase(join(tempDir(), 'cache.sqlite'), options.version === undefined ? {} : { upToVersion: options.version });
  made().open.push(db);
  return db;
}

/** Runs the store's migrations on `db` up to schema `version`, exactly; a database already past it is refused. */
export function updateToVersion(db: WritableDB, version: number): void {
  const from = schemaVersion(db);
  if (from > version) throw new Error(`the database is at schema ${from}, past ${version}: migrations never go back`);
  migrate(db, version);
}

/**
 * The cache a core works on, opened on a second connection, as another process would see it:
 * a test reads (or seeds) it there, since a core hands its shells nothing but the contract.
 * Closed after the test.
 */
export async function cacheOf(core: Core): Promise<WritableDB> {
  const db = openDatabase((await core.request('app.info', undefined)).databaseFile);
  made().open.push(db);
  return db;
}

function remove(m: Made): void {
  for (const db of m.open.splice(0)) if (db.open) db.close();
  for (const dir of m.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
afterEach(() => remove(byTest));
afterAll(() => remove(bySuite));
