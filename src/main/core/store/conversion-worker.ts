/**
 * The conversion's worker (a worker thread): converts a data folder's files to another key
 * (folder-conversion.ts), posting how far it is after each file, then the problems it met or the
 * error that stopped it. One task per worker. The caches are closed in the process that started
 * it, so this thread is alone on them.
 *
 * It runs from source under Node's type stripping (tests, CLI, web shell) and bundled as
 * out/main/store-convert.js (electron-vite, see electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ConversionReply, type ConversionTask, crossing, keyFromHex } from './conversion-thread.ts';
import { convertFolder } from './folder-conversion.ts';

const task = workerData as ConversionTask;
const post = (m: ConversionReply) => parentPort!.postMessage(m);
try {
  const problems = convertFolder(task.dataDir, keyFromHex(task.from), keyFromHex(task.to), new Date(task.now), (count) => post({ type: 'count', count }));
  post({ type: 'done', problems });
} catch (err) {
  post({ type: 'failed', error: crossing(err) });
}
