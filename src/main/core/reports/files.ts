import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';

/**
 * Writes an export to `path` through a temporary file renamed at the end: a failed or
 * cancelled export (a full disk, a bad request) leaves no half-written file behind, and an
 * existing file is replaced only by a complete one.
 */
export async function writeAtomically<T>(path: string, write: (out: Writable) => Promise<T>): Promise<T> {
  const partial = `${path}.partial`;
  // Owner-only on POSIX: a report lists the user's holdings.
  const out = createWriteStream(partial, { mode: 0o600 });
  // A folder that does not exist or cannot be written fails here, clearly, before any work.
  try {
    await once(out, 'open');
  } catch (err) {
    throw new Error(`Cannot write ${path}: ${(err as Error).message.replace(/^[A-Z]+: /, '')}`, { cause: err });
  }
  try {
    const result = await write(out);
    renameSync(partial, path);
    return result;
  } catch (err) {
    out.destroy();
    rmSync(partial, { force: true });
    const code = (err as { code?: string }).code;
    if (code === 'ENOSPC') throw new Error(`The disk is full: ${path} was not written. Free some space and export again.`, { cause: err });
    throw err;
  }
}
