/**
 * The web shell's downloads: a browser cannot be handed a path, so an export without a save
 * dialog is written by the core under a random id (`downloadPath`) and served by this shell
 * once, then deleted. Which ids are ready is web-only state, so it lives here, learned from
 * the jobs' progress: an export job that finished with a download id.
 */
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { type Core, downloadPath } from '../core/index.ts';

export interface WebDownloads {
  /**
   * The finished export with this id, forgotten as it is taken (each is served once). With
   * `may`, only when it says yes for the export's job (the team server: the exporter's own);
   * refused, it stays for whoever may take it.
   */
  take(id: string, may?: (jobId: string) => boolean): { path: string; fileName: string } | null;
  /** Stops listening, and deletes every export nobody took: no report is left behind on disk. */
  close(): void;
}

/** Exports written and not yet taken, at most: beyond it the oldest file is deleted (a reader exporting in a loop does not fill the disk). */
export const MAX_PENDING_DOWNLOADS = 100;

export async function webDownloads(core: Core, maxPending = MAX_PENDING_DOWNLOADS): Promise<WebDownloads> {
  // The core writes downloads into the data folder's `downloads` (see CoreOptions.chooseSavePath).
  // (cache.locked: answered also while the folder waits for its passphrase.)
  const dir = join((await core.request('cache.locked', undefined)).dataDir, 'downloads');
  const files = new Map<string, { path: string; fileName: string; job: string }>();
  const off = core.on('sync.progress', (job) => {
    const id = job.output?.downloadId;
    if (job.kind === 'export' && job.state === 'done' && id && job.output) {
      files.set(id, { path: downloadPath(dir, id, job.output.fileName), fileName: job.output.fileName, job: job.id });
      // A Map keeps its insertion order: the first entries are the oldest.
      for (const [old, file] of files) {
        if (files.size <= maxPending) break;
        files.delete(old);
        rmSync(file.path, { force: true });
      }
    }
  });
  return {
    take(id, may) {
      const file = files.get(id);
      if (!file || (may && !may(file.job))) return null;
      files.delete(id);
      return { path: file.path, fileName: file.fileName };
    },
    close() {
      off();
      for (const file of files.values()) rmSync(file.path, { force: true });
      files.clear();
    },
  };
}

/** A download's type by its file's kind: a bundle is a zip, a calendar iCalendar, a data file JSON (each was once served as CSV). */
const DOWNLOAD_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
  '.zip': 'application/zip',
  '.ics': 'text/calendar; charset=utf-8',
  '.json': 'application/json',
};

/**
 * A taken export sent whole as an attachment, then deleted (both shells: each is served once);
 * false when its file is gone, for the shell to answer 404 as it answers any unknown id.
 */
export function sendDownload(file: { path: string; fileName: string } | null, res: ServerResponse): boolean {
  if (!file || !existsSync(file.path)) return false;
  res.writeHead(200, {
    'Content-Type': DOWNLOAD_TYPES[extname(file.fileName).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': statSync(file.path).size,
    'Content-Disposition': `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
    'Cache-Control': 'no-store',
  });
  const stream = createReadStream(file.path);
  stream.pipe(res);
  stream.on('close', () => rmSync(file.path, { force: true }));
  return true;
}
