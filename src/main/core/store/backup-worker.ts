/**
 * The backup worker (a worker thread): makes or checks one backup (store/backup-files.ts) on a
 * connection of its own, so the seconds a large cache takes (VACUUM INTO, integrity_check,
 * SHA-256: bench/RESULTS.md) never hold up the main thread that answers the app. One task per
 * worker; it posts the result (or the error's name and message) and ends.
 *
 * It runs from source under Node's type stripping (tests, CLI, web shell) and bundled as
 * out/main/store-backup.js (electron-vite, see electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBackup, stageRestore, verifyBackup } from './backup-files.ts';
import { type BackupTask, createOptions, taskKey } from './backup-thread.ts';
import { openConnection } from './driver.ts';

const task = workerData as BackupTask;
try {
  let result: unknown;
  if (task.op === 'create') {
    // A second connection to the cache this process has open: SQLite shares the file's locks
    // between a process's connections, and this one only reads (VACUUM INTO writes the copy,
    // encrypted with the key of an encrypted cache, which the task carries).
    const db = openConnection(task.cacheFile, { fileMustExist: true }, taskKey(task));
    try {
      db.pragma('busy_timeout = 5000');
      result = createBackup(db, task.cacheFile, createOptions(task));
    } finally {
      db.close();
    }
  } else if (task.op === 'verify') result = verifyBackup(task.cacheFile, task.name, taskKey(task));
  else result = stageRestore(task.cacheFile, task.name, taskKey(task));
  parentPort!.postMessage({ ok: true, result });
} catch (err) {
  parentPort!.postMessage({ ok: false, name: (err as Error).name ?? 'Error', message: String((err as Error).message ?? err) });
}
