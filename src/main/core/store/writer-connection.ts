import { openDatabase, type WritableDB } from './db.ts';

/**
 * The write worker's connection to a cache the main thread has open (write-worker.ts; the
 * ingest benchmark writes the same way). A `sibling` (see OpenOptions): it never creates the
 * file, and its writes are not announced (write-yield.ts), since it is the writer that makes way.
 */
export function openWriterConnection(path: string): WritableDB {
  const db = openDatabase(path, { sibling: true });
  // Waiting for the write lock (another writer's batch) blocks only this thread: wait long.
  db.pragma('busy_timeout = 60000');
  // A page cache of 16 MiB (the main connection's was 64 then, now 16 as well): the worker appends (newest-first
  // indexes, see migration 4) and looks rows up by an 8-byte key, so it needs few pages at once,
  // and the operating system caches the file anyway. Measured (bench/RESULTS.md): the syncing
  // process's peak RSS 80–130 MiB lower, whale syncs no slower, into an empty or a 1M-row cache.
  db.pragma('cache_size = -16384');
  return db;
}
