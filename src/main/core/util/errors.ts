import { ServiceError } from '../service/index.ts';
import { ValidationError } from '../store/validation.ts';
import type { SerializedError } from '../../../shared/model.ts';

export function serializeError(err: unknown): SerializedError {
  if (err instanceof ServiceError) return err.toJSON();
  if (err instanceof ValidationError) return { kind: 'validation', message: err.message, retryable: false, field: err.field };
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
      return { kind: 'disk-full', message: 'The disk is full: nothing was saved from this step. Free some space and try again.', retryable: true };
    }
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code?.startsWith('SQLITE_CORRUPT_')) {
      // Found while running (a page damaged since start-up): say what the way forward is.
      return {
        kind: 'storage',
        message: `The local cache is damaged (${code}); nothing from this step was saved. Restart Folioscope: it offers to open the cache read-only, move it aside and rebuild, or use another folder.`,
        retryable: false,
      };
    }
    if (code === 'SQLITE_READONLY') {
      return { kind: 'storage', message: 'The cache is open read-only: viewing and exports work; syncing and changes do not.', retryable: false };
    }
    if (typeof code === 'string' && code.startsWith('SQLITE_')) {
      return { kind: 'storage', message: `The local cache could not be written (${code}). Nothing from this step was saved.`, retryable: true };
    }
    return { kind: err.name === 'Error' ? 'internal' : err.name, message: err.message, retryable: false };
  }
  return { kind: 'internal', message: String(err), retryable: false };
}
