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
  // A page cache of 16 MiB, as the main connection's: the worker appends (newest-first
  // indexes, see migration 4) and looks rows up by an 8-byte key, so it needs few pages at
  // once, and the operating system caches the file anyway. A larger one raised the syncing
  // process's peak RSS and synced a whale no faster, into an empty or a 1M-row cache; what a
  // larger one once bought at 1M rows came from the hash lookups the filter below now skips
  // (bench/RESULTS.md, "Third round (issue 16 item 3, h16t)", "Round 5 (lead)", "Round 6").
  db.pragma('cache_size = -16384');
  // It writes long reads of one pair: new hashes are known new without a lookup (hash-filter.ts).
  enableNewHashFilter(db);
  return db;
}
