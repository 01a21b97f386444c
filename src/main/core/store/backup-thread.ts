/**
 * Backups made and checked off the main thread (backup-worker.ts): the app's and the web
 * shell's main thread keeps answering while a large cache is copied, checked and hashed. A
 * worker that cannot start (a bundle without it) leaves the work on this thread, as before.
 */
import { Worker } from 'node:worker_threads';
import { CacheKey, type Database, keyOf } from './driver.ts';
import type { BackupInfo, BackupReason } from '../../../shared/model.ts';
import { BackupRefusedError, type BackupOptions, createBackup, stageRestore, verifyBackup } from './backup-files.ts';
import { workerEntry } from './worker-entry.ts';

/** A task for the worker; `key`: the hex of an encrypted cache's key (in workerData only, never in a message or log). */
export type BackupTask = (
  | {
      op: 'create';
      cacheFile: string;
      reason: BackupReason;
      appVersion: string;
      /** The core's clock (ms): the backup's name and time (absent: this computer's). */ now?: number;
    }
  | { op: 'verify' | 'stage'; cacheFile: string; name: string }
) & { key: string | null };

/** The key a task carries, as the worker or this thread uses it. */
export const taskKey = (task: BackupTask): CacheKey | null => (task.key ? CacheKey.fromHex(task.key) : null);

type Reply = { ok: true; result: unknown } | { ok: false; name: string; message: string };

function inThread(db: Database, task: BackupTask): unknown {
  if (task.op === 'create') return createBackup(db, task.cacheFile, createOptions(task));
  return task.op === 'verify' ? verifyBackup(task.cacheFile, task.name, taskKey(task)) : stageRestore(task.cacheFile, task.name, taskKey(task));
}

function run(db: Database, task: BackupTask): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(backupWorkerUrl(), { workerData: task });
    } catch {
      return resolve(inThread(db, task));
    }
    let replied = false;
    worker.once('message', (m: Reply) => {
      replied = true;
      if (m.ok) return resolve(m.result);
      const err = m.name === 'BackupRefusedError' ? new BackupRefusedError(m.message) : new Error(m.message);
      reject(err);
    });
    // A worker that failed to load (its file missing) or died: the task on this thread.
    worker.once('error', () => {
      if (replied) return;
      replied = true;
      try {
        resolve(inThread(db, task));
      } catch (err) {
        reject(err as Error);
      }
    });
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`the backup worker stopped (exit code ${code})`));
    });
  });
}

/**
 * createBackup on a worker thread (db: the cache's connection, used only if no worker can
 * start; its key, an encrypted cache's, goes with the task). Verify and stage take the data
 * folder's key: a backup is checked and restored with it.
 */
export const createBackupOffThread = (db: Database, cacheFile: string, reason: BackupReason, appVersion: string, now = Date.now()) =>
  run(db, { op: 'create', cacheFile, reason, appVersion, now, key: keyOf(db)?.hex() ?? null }) as Promise<BackupInfo>;
export const verifyBackupOffThread = (db: Database, cacheFile: string, name: string, key: CacheKey | null = null) =>
  run(db, { op: 'verify', cacheFile, name, key: key?.hex() ?? null }) as Promise<BackupInfo>;
export const stageRestoreOffThread = (db: Database, cacheFile: string, name: string, key: CacheKey | null = null) =>
  run(db, { op: 'stage', cacheFile, name, key: key?.hex() ?? null }) as Promise<{ staged: string; backup: BackupInfo }>;

/** The worker's entry: out/main/store-backup.js when bundled, else the source file (see workerEntry). */
function backupWorkerUrl(): URL {
  return workerEntry(import.meta.url, 'backup-worker.ts', 'store-backup.js');
}

/** What createBackup is given for a task, on this thread or the worker's. */
export function createOptions(task: Extract<BackupTask, { op: 'create' }>): BackupOptions {
  return { reason: task.reason, appVersion: task.appVersion, ...(task.now !== undefined && { now: new Date(task.now) }) };
}
