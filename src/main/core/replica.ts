/**
 * A team server's replica for a desktop (store/replica-files.ts) made on a worker thread
 * (replica-worker.ts): the copy reads the whole cache, rewrites it without the secrets and hashes
 * it, seconds to tens of seconds at a fund's scale, during which the server's one thread went on
 * answering nobody. What is taken out of the copy is said once, here, for the worker and for the
 * thread that makes it when no worker can start.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { roleAllows, type Role } from '../../shared/roles.ts';
import { scrubSecretEdits } from './audit/index.ts';
import { scrubPeopleSecrets } from './people/index.ts';
import { forgetAnswers } from './portfolio/index.ts';
import { CacheKey, type Database, keyOf } from './store/driver.ts';
import type { WritableDB } from './store/handles.ts';
import { makeReplica, type ReplicaManifest } from './store/replica-files.ts';
import { scrubSecretSettings } from './store/settings.ts';
import { workerEntry } from './store/worker-entry.ts';

/** The worker's task; `key`: the hex of an encrypted cache's key (in workerData only, never in a message or log). */
export interface ReplicaTask {
  cacheFile: string;
  key: string | null;
  target: string;
  origin: string;
  appVersion: string;
  /** The core's clock (ms): the replica's time. */
  now: number;
  /** The role of who asked: one who may not administer gets no secret setting nor its edits. */
  role: Role | null;
}

export type ReplicaReply = { ok: true; manifest: ReplicaManifest } | { ok: false; message: string };

/** What a replica leaves out: the people's secrets, what each person looked at, and for a role below admin the secret settings and their edits. */
export function scrubForReplica(copy: WritableDB, role: Role | null): void {
  scrubPeopleSecrets(copy);
  // What each person looked at (the kept answers' requests) is not the team's to read.
  forgetAnswers(copy);
  // Someone who may not see the settings' secrets gets a copy without them (src/shared/webhook.ts).
  if (role && !roleAllows(role, 'admin')) {
    scrubSecretSettings(copy);
    scrubSecretEdits(copy);
  }
}

/** The replica made on this thread, on the cache's own connection `db` (the worker's way when it cannot start). */
export function makeReplicaHere(db: Database, task: ReplicaTask): ReplicaManifest {
  return makeReplica(db, task.key ? CacheKey.fromHex(task.key) : null, task.target, {
    origin: task.origin,
    appVersion: task.appVersion,
    now: new Date(task.now),
    scrub: (copy) => scrubForReplica(copy, task.role),
  });
}

/**
 * The replica of the cache `db` has open, written to `target` on a worker thread with a
 * connection of its own (a second reader of the cache, as the backup worker's). A worker that
 * cannot start leaves the work on this thread, as before; one that fails says why, and `target`
 * is gone either way (makeReplica removes it).
 */
export function makeReplicaOffThread(
  db: Database,
  cacheFile: string,
  target: string,
  o: { origin: string; appVersion: string; now: number; role: Role | null },
): Promise<ReplicaManifest> {
  const task: ReplicaTask = { cacheFile, key: keyOf(db)?.hex() ?? null, target, ...o };
  return new Promise((resolve, reject) => {
    const here = () => {
      try {
        resolve(makeReplicaHere(db, task));
      } catch (err) {
        reject(err as Error);
      }
    };
    let worker: Worker;
    try {
      const [entry, options] = replicaWorkerEntry();
      worker = new Worker(entry, { ...options, workerData: task });
    } catch {
      return here();
    }
    let replied = false;
    worker.once('message', (m: ReplicaReply) => {
      replied = true;
      if (m.ok) resolve(m.manifest);
      else reject(new Error(m.message));
    });
    // A worker that failed to load (its file missing) has written nothing: the work on this thread.
    worker.once('error', () => {
      if (replied) return;
      replied = true;
      here();
    });
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`The copy of the books for the desktop was not made: its worker stopped (exit code ${code}).`));
    });
  });
}

/**
 * The worker's entry: out/main/replica.js when bundled; from source, replica-worker.ts under
 * tsx's loader, since the scrubs' faces load modules (the spam judge's) that Node's type
 * stripping refuses (as the transactions export's worker, reports/spam-cells.ts).
 */
export function replicaWorkerEntry(here: string = import.meta.url): [URL, { execArgv?: string[] }] {
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return [new URL('./replica-worker.ts', here), { execArgv: ['--import', tsx] }];
  }
  return [workerEntry(here, 'replica-worker.ts', 'replica.js'), {}];
}
