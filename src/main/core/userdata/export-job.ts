/**
 * The user's data file as an export job, like a report's: saved where the shell says (the
 * desktop's save dialog, the CLI's --out) or, in the web shell, written under a download id
 * and downloaded once. The passphrase lives in this closure only; it is never stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { JobInfo, JobTitle } from '../../../shared/model.ts';
import { downloadPath, type ExportTarget, writeAtomically } from '../reports/index.ts';
import type { ReadableDB } from '../store/db.ts';
import type { JobQueue } from '../jobs/index.ts';
import { writeUserDataFile } from './format.ts';
import { exportUserData } from './plan.ts';

export async function startUserDataExport(
  db: ReadableDB,
  queue: JobQueue,
  target: ExportTarget,
  o: { passphrase?: string | undefined; app: string; now?: Date },
): Promise<JobInfo | null> {
  const now = o.now ?? new Date();
  const fileName = `folioscope-data-${now.toISOString().slice(0, 10)}${o.passphrase !== undefined ? '-encrypted' : ''}.json`;
  let path: string;
  let downloadId: string | null = null;
  if (target.chooseSavePath) {
    const chosen = await target.chooseSavePath(fileName, 'json');
    if (!chosen) return null;
    path = chosen;
  } else {
    mkdirSync(target.downloadsDir, { recursive: true, mode: 0o700 });
    downloadId = randomBytes(12).toString('base64url');
    path = downloadPath(target.downloadsDir, downloadId, fileName);
  }
  const label = o.passphrase !== undefined ? 'Your data (JSON, encrypted)' : 'Your data (JSON)';
  const title: JobTitle = { kind: 'user-data', encrypted: o.passphrase !== undefined };
  const job = queue.enqueue(
    'export',
    label,
    async (ctx) => {
      ctx.progress({ phase: 'writing', done: 0, total: null });
      const doc = exportUserData(db, o.app, now);
      const text = await writeUserDataFile(doc, o.passphrase);
      await writeAtomically(path, async (out) => {
        out.end(text);
      });
      job.info.output = { fileName, path: downloadId ? null : path, downloadId, rows: doc.data.wallets.length };
    },
    null,
    { title },
  );
  return job.info;
}
