/**
 * A data folder's conversion (folder-conversion.ts) on a worker thread (conversion-worker.ts):
 * copying and checking a cache of gigabytes under another key takes tens of seconds, during which
 * the app's and the web shell's thread keeps answering, and tells the screens how far it is. A
 * worker that cannot start (a bundle without it) leaves the work on this thread, as before.
 */
import { Worker } from 'node:worker_threads';
import type { ConversionCount } from '../../../shared/model.ts';
import { CacheInUseError } from './cache-conversion.ts';
import { CacheProblemError } from './db.ts';
import { CacheKey } from './driver.ts';
import { convertFolder } from './folder-conversion.ts';
import { workerEntry } from './worker-entry.ts';

/** The worker's task: the keys as hex (in workerData only, never in a message or log). */
export interface ConversionTask {
  dataDir: string;
  from: string | null;
  to: string | null;
  /** The core's clock (ms): the names the old files are kept under. */
  now: number;
}

/** An error as it crosses from the worker: what serializeError and the callers read of it. */
export interface CrossedError {
  name: string;
  message: string;
  code?: string;
  said?: unknown;
  /** A CacheProblemError's, or a CacheInUseError's file. */
  path?: string;
  problem?: string;
  detail?: string;
}

export type ConversionReply = { type: 'count'; count: ConversionCount } | { type: 'done'; problems: string[] } | { type: 'failed'; error: CrossedError };

export const keyFromHex = (hex: string | null): CacheKey | null => (hex ? CacheKey.fromHex(hex) : null);

/** What of an error the worker sends: its name, message, code and coded words, and a cache problem's parts. */
export function crossing(err: unknown): CrossedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const e = err as Error & Partial<Record<'code' | 'path' | 'problem' | 'detail', string>> & { said?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof e.code === 'string' && { code: e.code }),
    ...(e.said !== undefined && { said: e.said }),
    ...(err instanceof CacheProblemError && { path: err.path, problem: err.problem, detail: err.detail }),
    ...(err instanceof CacheInUseError && { path: err.path }),
  };
}

/** The error again on this thread, of the class the callers tell apart (a cache in use, a cache problem), with its code and words. */
function crossed(e: CrossedError): Error {
  if (e.name === 'CacheInUseError' && e.path) return new CacheInUseError(e.path);
  if (e.name === 'CacheProblemError' && e.path && e.problem) return new CacheProblemError(e.path, e.problem as CacheProblemError['problem'], e.detail ?? '');
  const err = Object.assign(new Error(e.message), e.code !== undefined && { code: e.code }, e.said !== undefined && { said: e.said });
  err.name = e.name;
  return err;
}

/**
 * convertFolder on a worker thread: the same files converted in the same order, `onCount` told
 * as each is done with; the same problems returned, the same errors thrown (see crossed).
 */
export function convertFolderOffThread(
  dataDir: string,
  from: CacheKey | null,
  to: CacheKey | null,
  now: Date,
  onCount: (c: ConversionCount) => void = () => {},
): Promise<string[]> {
  const task: ConversionTask = { dataDir, from: from?.hex() ?? null, to: to?.hex() ?? null, now: now.getTime() };
  return new Promise((resolve, reject) => {
    const inThread = () => {
      try {
        resolve(convertFolder(dataDir, from, to, now, onCount));
      } catch (err) {
        reject(err as Error);
      }
    };
    let worker: Worker;
    try {
      worker = new Worker(workerEntry(import.meta.url, 'conversion-worker.ts', 'store-convert.js'), { workerData: task });
    } catch {
      return inThread();
    }
    let started = false;
    let ended = false;
    worker.on('message', (m: ConversionReply) => {
      started = true;
      if (m.type === 'count') return onCount(m.count);
      ended = true;
      if (m.type === 'done') resolve(m.problems);
      else reject(crossed(m.error));
    });
    worker.once('error', (err) => {
      if (ended) return;
      ended = true;
      // A worker that failed to load (its file missing) has converted nothing: the work on this thread.
      if (!started) return inThread();
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!ended)
        reject(new Error(`the conversion's worker stopped (exit code ${code}) before it finished; every file opens with the folder's key as it now is`));
    });
  });
}
