/**
 * The replica's worker (a worker thread): makes one team server's replica for a desktop
 * (replica.ts) on a connection of its own to the cache, and posts its manifest or why it failed.
 * It runs from source under tsx's loader and bundled as out/main/replica.js (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { makeReplicaHere, type ReplicaReply, type ReplicaTask } from './replica.ts';
import { CacheKey } from './store/driver.ts';
import { openCacheToCopy } from './store/replica-files.ts';

const task = workerData as ReplicaTask;
const post = (m: ReplicaReply) => parentPort!.postMessage(m);
try {
  const db = openCacheToCopy(task.cacheFile, task.key ? CacheKey.fromHex(task.key) : null);
  try {
    post({ ok: true, manifest: makeReplicaHere(db, task) });
  } finally {
    db.close();
  }
} catch (err) {
  post({ ok: false, message: String((err as Error).message ?? err) });
}
