/**
 * What can go wrong when a view loads, as a closed set of kinds. They are derived from the
 * errors the contract carries (`SerializedError.kind`: the service client's kinds, the
 * store's `validation`, `storage` and `disk-full`, the transports' `shell-offline` and
 * `forbidden`, anything else `internal`), plus checks a view makes before asking. Every view
 * shows an error through `describeLoadError`, whose switch is exhaustive: a new kind fails
 * the typecheck until it says how that kind reads.
 */
import { errorMessage, FolioError } from './api.ts';

/** Why the service client failed (its `ServiceErrorKind`s other than network and cancelled). */
export type ServiceFailure = 'auth' | 'rate-limited' | 'server' | 'bad-request' | 'bad-response' | 'service-status';

export type LoadError =
  /** The service could not be reached (network down, timed out). */
  | { kind: 'offline'; message: string }
  /** The app's own server (web shell) did not answer. */
  | { kind: 'shell-down'; message: string }
  /** The web shell no longer accepts this page (its session token is gone). */
  | { kind: 'forbidden'; message: string }
  /** What was asked is not valid (a field the core refused, or a view's own check). */
  | { kind: 'invalid-input'; message: string; field: string | null }
  /** The service answered, but not with what was asked for. */
  | { kind: 'service'; failure: ServiceFailure; message: string; retryable: boolean }
  /** The local cache could not be read or written (damaged, read-only, disk full). */
  | { kind: 'storage'; message: string; retryable: boolean }
  /** The work was cancelled. */
  | { kind: 'cancelled'; message: string }
  /** Anything else: a defect, said as it is. */
  | { kind: 'internal'; message: string };

const SERVICE_FAILURES: readonly string[] = ['auth', 'rate-limited', 'server', 'bad-request', 'bad-response', 'service-status'] satisfies ServiceFailure[];

/** Maps what a call threw to its kind. */
export function toLoadError(err: unknown): LoadError {
  if (isLoadError(err)) return err;
  // Said in the UI's language once, here: a FolioError's message already is (its constructor).
  if (!(err instanceof FolioError)) return { kind: 'internal', message: errorMessage(err) };
  const message = err.message;
  switch (err.kind) {
    case 'network':
      return { kind: 'offline', message };
    case 'shell-offline':
      return { kind: 'shell-down', message };
    case 'forbidden':
      return { kind: 'forbidden', message };
    case 'validation':
      return { kind: 'invalid-input', message, field: err.field ?? null };
    case 'storage':
    case 'disk-full':
      return { kind: 'storage', message, retryable: err.retryable };
    case 'cancelled':
      return { kind: 'cancelled', message };
    default:
      if (SERVICE_FAILURES.includes(err.kind)) return { kind: 'service', failure: err.kind as ServiceFailure, message, retryable: err.retryable };
      return { kind: 'internal', message };
  }
}

/** An error a view finds itself before asking (a range that ends before it starts). */
export function invalidInput(message: string, field: string | null = null): LoadError {
  return { kind: 'invalid-input', message, field };
}

function isLoadError(v: unknown): v is LoadError {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && 'kind' in v && 'message' in v;
}

/** How a view shows an error: its text, and whether trying again may help. */
export interface ShownError {
  message: string;
  retryable: boolean;
}

/** The one exhaustive switch over the kinds. */
export function describeLoadError(e: LoadError): ShownError {
  switch (e.kind) {
    case 'offline':
    case 'shell-down':
      return { message: e.message, retryable: true };
    case 'forbidden':
    case 'invalid-input':
    case 'cancelled':
    case 'internal':
      return { message: e.message, retryable: false };
    case 'service':
    case 'storage':
      return { message: e.message, retryable: e.retryable };
    default:
      return unhandled(e);
  }
}

function unhandled(e: never): never {
  throw new Error(`An error kind no view handles: ${JSON.stringify(e)}`);
}
