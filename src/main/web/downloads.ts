/**
 * The web shell's downloads: a browser cannot be handed a path, so an export without a save
 * dialog is written by the core under a random id (`downloadPath`) and served by this shell
 * once, then deleted. Which ids are ready is web-only state, so it lives here, learned from
 * the jobs' progress: an export job that finished with a download id.
 */
import { join } from 'node:path';
import { type Core, downloadPath } from '../core/index.ts';

export interface WebDownloads {
  /**
   * The finished export with this id, forgotten as it is taken (each is served once). With
   * `may`, only when it says yes for the export's job (the team server: the exporter's own);
   * refused, it stays for whoever may take it.
   */
  take(id: string, may?: (jobId: string) => boolean): { path: string; fileName: string } | null;
  close(): void;
}

export async function webDownloads(core: Core): Promise<WebDownloads> {
  // The core writes downloads into the data folder's `downloads` (see CoreOptions.chooseSavePath).
  // (cache.locked: answered also while the folder waits for its passphrase.)
  const dir = join((await core.request('cache.locked', undefined)).dataDir, 'downloads');
  const files = new Map<string, { path: string; fileName: string; job: string }>();
  const off = core.on('sync.progress', (job) => {
    const id = job.output?.downloadId;
    if (job.kind === 'export' && job.state === 'done' && id && job.output)
      files.set(id, { path: downloadPath(dir, id, job.output.fileName), fileName: job.output.fileName, job: job.id });
  });
  return {
    take(id, may) {
      const file = files.get(id);
      if (!file || (may && !may(file.job))) return null;
      files.delete(id);
      return { path: file.path, fileName: file.fileName };
    },
    close: off,
  };
}
