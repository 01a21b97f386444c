import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';

const dirs: string[] = [];
const open: WritableDB[] = [];

/** A fresh temporary folder, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folioscope-test-'));
  dirs.push(dir);
  return dir;
}

/** A real SQLite cache in a temporary folder (WAL needs a file), closed after the test. */
export function tempDb(): { db: WritableDB; path: string } {
  const path = join(tempDir(), 'cache.sqlite');
  const db = openDatabase(path);
  open.push(db);
  return { db, path };
}

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
