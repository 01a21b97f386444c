import { randomBytes } from 'node:crypto';
import { closeSync, constants, createWriteStream, fstatSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * Writes an export to `path` through a temporary file renamed at the end: a failed or
 * cancelled export (a full disk, a bad request) leaves no half-written file behind, and an
 * existing file is replaced only by a complete one. The temporary file has a name of its own
 * each time and is created exclusively (O_EXCL, O_NOFOLLOW) with mode 0600: a file or link
 * planted at a guessable name is never followed, written through or given its mode. Success
 * is reported only once the stream finished without an error, the data reached the disk
 * (fsync: a file system that allocates late says "full" there) and the file's size, read back,
 * is every byte handed to it.
 */
export async function writeAtomically<T>(path: string, write: (out: Writable) => Promise<T>): Promise<T> {
  const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
  let fd: number;
  try {
    fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (err) {
    // A folder that does not exist or cannot be written fails here, clearly, before any work.
    // Name the user's path and the reason, never the internal ".partial" file.
    throw new Error(`Cannot write ${path}: ${writeProblem(err as NodeJS.ErrnoException, path, partial)}`, { cause: err });
  }
  // Owner-only on POSIX: a report lists the user's holdings. A 4 MiB mark: a CSV export hands
  // over 1 MiB chunks (csv.ts), and keeps formatting the next while the disk takes the last,
  // instead of waiting on each (the default 16 KiB mark is full after any chunk).
  const out = createWriteStream(partial, { fd, autoClose: false, highWaterMark: 4 * 1024 * 1024 });
  // An error the writer does not wait for (one raised by the last write, after its end) is kept.
  let failure: unknown = null;
  out.on('error', (err) => (failure ??= err));
  try {
    const result = await write(out);
    if (!out.writableEnded) out.end();
    await finished(out);
    if (failure) throw failure;
    fsyncSync(fd);
    const size = fstatSync(fd).size;
    if (size !== out.bytesWritten) throw new Error(`Cannot write ${path}: ${size} of ${out.bytesWritten} bytes reached the disk.`);
    closeSync(fd);
    renameSync(partial, path);
    return result;
  } catch (err) {
    out.destroy();
    try {
      closeSync(fd);
    } catch {
      // closed already (after the size was checked)
    }
    rmSync(partial, { force: true });
    const code = (err as { code?: string }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new Error(`The disk is full: ${path} was not written. Free some space and export again.`, { cause: err });
    // A file-system failure (the rename, a write) is told about the user's path, not ".partial".
    if ((err as NodeJS.ErrnoException).syscall)
      throw new Error(`Cannot write ${path}: ${writeProblem(err as NodeJS.ErrnoException, path, partial)}`, { cause: err });
    throw err;
  }
}

/** Why a file could not be created, in words about the user's path. */
function writeProblem(err: NodeJS.ErrnoException, path: string, partial: string): string {
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
      return 'the disk is full. Free some space and export again.';
    case 'EEXIST':
    case 'ELOOP':
      return 'a file is in the way of its temporary file; export again.';
    default:
      return (err.message ?? String(err)).replace(/^[A-Z]+: /, '').replaceAll(partial, path);
  }
}
