import { describe, expect, it } from 'vitest';
import { MAIN_CACHE_KIB, openDatabase } from '../../src/main/core/store/db.ts';
import { openWriterConnection } from '../../src/main/core/transactions/store/writer-connection.ts';
import { join } from 'node:path';
import { tempDir } from '../support/store.ts';

// The syncing process's memory (bench/RESULTS.md, round 5): each connection's page cache is a
// bound SQLite keeps, and what it held stays with glibc once dropped.
describe("the cache's connections keep small page caches", () => {
  it('the main connection 16 MiB once opened (a new cache and one opened again), the write worker 16 MiB', () => {
    const path = join(tempDir(), 'cache.sqlite');
    const first = openDatabase(path);
    expect(MAIN_CACHE_KIB).toBe(16_384);
    expect(first.pragma('cache_size', { simple: true })).toBe(-MAIN_CACHE_KIB);
    const writer = openWriterConnection(path);
    expect(writer.pragma('cache_size', { simple: true })).toBe(-16_384);
    writer.close();
    first.close();
    const again = openDatabase(path);
    expect(again.pragma('cache_size', { simple: true })).toBe(-MAIN_CACHE_KIB);
    again.close();
  });
});
