import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';

/**
 * Writes an export to `path` through a temporary file renamed at the end: a failed or
 * cancelled export (a full disk, a bad request) leaves no half-written file behind, and an
 * existing file is replaced only by a complete one.
 */
export async function writeAtomically<T>(path: string, write: (out: Writable) => Promise<T>): Promise<T> {
  const partial = `${path}.partial`;
  // Owner-only on POSIX: a report lists the user's holdings. A 4 MiB mark: a CSV export hands
  // over 1 MiB chunks (csv.ts), and keeps formatting the next while the disk takes the last,
  // instead of waiting on each (the default 16 KiB mark is full after any chunk).
  const out = createWriteStream(partial, { mode: 0o600, highWaterMark: 4 * 1024 * 1024 });
  // A folder that does not exist or cannot be written fails here, clearly, before any work.
  try {
    await once(out, 'open');
  } catch (err) {
    // Name the user's path and the reason, never the internal ".partial" file.
    throw new Error(`Cannot write ${path}: ${writeProblem(err as NodeJS.ErrnoException, path)}`, { cause: err });
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
    // A file-system failure (the rename, a write) is told about the user's path, not ".partial".
    if ((err as NodeJS.ErrnoException).syscall) throw new Error(`Cannot write ${path}: ${writeProblem(err as NodeJS.ErrnoException, path)}`, { cause: err });
    throw err;
  }
}

/** Why a file could not be created, in words about the user's path. */
function writeProblem(err: NodeJS.ErrnoException, path: string): string {
  const folder = dirname(path);
  switch (err.code) {
    case 'ENOENT':
      return `the folder ${folder} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (check that ${folder} is writable).`;
    case 'EISDIR':
      return 'it is a folder; give a file name.';
    case 'ENOTDIR':
      return `part of ${folder} is not a folder.`;
    case 'EROFS':
      return 'the disk is read-only.';
    case 'ENOSPC':
      return 'the disk is full.';
    default:
      return (err.message ?? String(err)).replace(/^[A-Z]+: /, '').replaceAll(`${path}.partial`, path);
  }
}
