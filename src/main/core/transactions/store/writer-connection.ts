import { openDatabase, type WritableDB } from '../../store/db.ts';
import type { CacheKey } from '../../store/driver.ts';
import { enableNewHashFilter } from './hash-filter.ts';

/**
 * The write worker's connection to a cache the main thread has open (write-worker.ts; the
 * ingest benchmark writes the same way). A `sibling` (see OpenOptions): it never creates the
 * file, and its writes are not announced (write-yield.ts), since it is the writer that makes way.
 */
export function openWriterConnection(path: string, key: CacheKey | null = null): WritableDB {
  const db = openDatabase(path, { sibling: true, key });
  // Waiting for the write lock (another writer's batch) blocks only this thread: wait long.
  db.pragma('busy_timeout = 60000');
  // A page cache of 16 MiB (as the main connection's since round 5; it was 64 MiB then): the
  // worker appends (newest-first indexes, see migration 4) and looks rows up by an 8-byte key,
  // so it needs few pages at once, and the operating system caches the file anyway. Measured
  // (bench/RESULTS.md): the syncing process's peak RSS 80–130 MiB lower than with 64 MiB, whale
  // syncs no slower, into an empty or a 1M-row cache. At 1M rows a 48 MiB one wrote ~7 % faster
  // in round 5, from the hash lookups the filter below now skips: 64 MiB bought nothing in round 6.
  db.pragma('cache_size = -16384');
  // It writes long reads of one pair: new hashes are known new without a lookup (hash-filter.ts).
  enableNewHashFilter(db);
  return db;
}
