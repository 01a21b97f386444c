/**
 * The web shell's downloads: a browser cannot be handed a path, so an export without a save
 * dialog is written by the core under a random id (`downloadPath`) and served by this shell
 * once, then deleted. Which ids are ready is web-only state, so it lives here, learned from
 * the jobs' progress: an export job that finished with a download id.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
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
