/**
 * The renderer's one way in: the contract's operations, from the Electron preload
 * (`window.folio`, over IPC) or, in the web shell, over HTTP with server-sent events.
 * Both carry result envelopes; this unwraps them, throwing a FolioError on failure.
 */

import type { Envelope, EventPayloads, FolioApi, InputOf, OutputOf } from '../../../shared/contract.ts';
import type { SerializedError } from '../../../shared/model.ts';
import { waitingOutSlowDowns } from '../../../shared/slow-down.ts';
import { words } from './words.ts';
import { coreError, errorText } from './core-text.ts';
import { EVENT_NAMES, type EventName, OPERATION_NAMES, type OperationName } from '../../../shared/operations.ts';

export class FolioError extends Error {
  readonly kind: string;
  readonly field: string | undefined;
  readonly retryable: boolean;
  constructor(e: SerializedError) {
    // In the UI's language: every view shows `message` as it is (a refusal with a code is said from it).
    super(errorText(e));
    this.kind = e.kind;
    this.field = e.field;
    this.retryable = e.retryable;
  }
}

/**
 * What a caught error says, in the UI's language, said once: a FolioError's message already is
 * (its constructor); anything else thrown (a transport's TypeError, a plain Error) is said here.
 */
export function errorMessage(err: unknown): string {
  return err instanceof FolioError ? err.message : coreError(err instanceof Error ? err.message : String(err));
}

/**
 * An operation as a transport offers it: with a request id (Electron: the preload's
 * `cancel(id)` then stops it in the main process) and, over HTTP, the signal that aborts the
 * request (the web shell then stops the core's work: the connection closed).
 */
type Raw = { [K in OperationName]: (input?: unknown, requestId?: number, signal?: AbortSignal) => Promise<Envelope<OutputOf<K>>> } & {
  on(event: string, listener: (payload: unknown) => void): () => void;
  cancel?(requestId: number): void;
};

const CANCELLED = { ok: false, error: { kind: 'cancelled', message: 'Cancelled.', retryable: false } } as const;

declare global {
  interface Window {
    folio?: Raw;
  }
}

/**
 * The web shell serves the app under a random path of its own (`/s/<random>/`, where its
 * token cookie is scoped), so every API address is relative to the page, never `/api/…`.
 */
export const API_BASE = 'api/';

/** Who is signed in on a team server, and the CSRF token every POST of this page carries (src/main/team/server.ts). */
export interface TeamSession {
  person: string;
  role: string;
  csrf: string;
}

let team: Promise<TeamSession | null> | null = null;

/**
 * The team server's session, asked once by a same-origin GET (`api/session`); null in the app and
 * in the loopback web shell, which answer no such thing (their token stands in for a person).
 */
export function teamSession(): Promise<TeamSession | null> {
  if (typeof window === 'undefined' || window.folio) return Promise.resolve(null);
  // Within the person's allowance like any request of theirs: a moment's wait, not "no session".
  team ??= waitingOutSlowDowns(() => fetch(`${API_BASE}session`, { credentials: 'same-origin' }))
    .then(async (r) => {
      if (r.status !== 200 || !(r.headers.get('content-type') ?? '').startsWith('application/json')) return null;
      const s = (await r.json()) as Partial<TeamSession>;
      return typeof s.person === 'string' && typeof s.role === 'string' && typeof s.csrf === 'string' ? (s as TeamSession) : null;
    })
    .catch(() => null);
  return team;
}

/** Ends this session (or every session of this person) on the team server, then shows its sign-in page. */
export async function signOut(everywhere: boolean): Promise<void> {
  const s = await teamSession();
  if (!s) return;
  await fetch(`${API_BASE}${everywhere ? 'sign-out-everywhere' : 'sign-out'}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'X-Folio-CSRF': s.csrf },
  }).catch(() => undefined);
  window.location.assign('sign-in');
}

function httpTransport(): Raw {
  const raw: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    raw[name] = async (input?: unknown, _requestId?: number, signal?: AbortSignal) => {
      let res: Response;
      // On a team server every POST carries the session's CSRF token (its Origin the browser adds).
      const session = await teamSession();
      try {
        // Over the person's allowance on a team server, the answer comes a moment later (shared/slow-down.ts).
        res = await waitingOutSlowDowns(
          () =>
            fetch(`${API_BASE}${name}`, {
              method: 'POST',
              credentials: 'same-origin',
              headers: { 'Content-Type': 'application/json', ...(session && { 'X-Folio-CSRF': session.csrf }) },
              body: input === undefined ? '' : JSON.stringify(input),
              ...(signal && { signal }),
            }),
          { signal },
        );
      } catch {
        // An abort is the caller's own doing, not a server gone.
        if (signal?.aborted) return CANCELLED;
        return { ok: false, error: { kind: 'shell-offline', message: words.api.serverDown, retryable: true } };
      }
      if (res.status === 401)
        return { ok: false, error: { kind: 'forbidden', message: session ? words.api.sessionEnded : words.api.lostToken, retryable: false } };
      return (await res.json()) as Envelope<unknown>;
    };
  }
  let source: EventSource | null = null;
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  raw['on'] = (event: string, listener: (p: unknown) => void) => {
    if (!source) {
      source = new EventSource(`${API_BASE}events`, { withCredentials: true });
      for (const name of EVENT_NAMES) {
        source.addEventListener(name, (e) => {
          const payload = JSON.parse((e as MessageEvent<string>).data) as unknown;
          for (const l of listeners.get(name) ?? []) l(payload);
        });
      }
    }
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };
  return raw as Raw;
}

function unwrap(raw: Raw): FolioApi {
  const api: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    api[name] = async (input: unknown) => {
      const env = await raw[name](input);
      if (!env.ok) throw new FolioError(env.error);
      return env.result;
    };
  }
  api['on'] = (event: EventName, listener: (p: unknown) => void) => raw.on(event, listener);
  return api as FolioApi;
}

export const isElectron = typeof window !== 'undefined' && !!window.folio;
const transport: Raw = typeof window !== 'undefined' && window.folio ? window.folio : httpTransport();
export const folio: FolioApi = unwrap(transport);
let lastRequest = 0;

/**
 * Calls an operation; the shape every view uses. With a signal (a loader's), a caller that
 * stops wanting the answer stops the work in the core too: over IPC by the request's id (the
 * signal itself cannot cross the context bridge), over HTTP by aborting the request.
 */
export async function call<K extends OperationName>(op: K, input: InputOf<K>, options: { signal?: AbortSignal } = {}): Promise<OutputOf<K>> {
  const { signal } = options;
  if (!signal) return (folio[op] as (i: InputOf<K>) => Promise<OutputOf<K>>)(input);
  if (signal.aborted) throw new FolioError(CANCELLED.error);
  const id = ++lastRequest;
  const cancel = () => transport.cancel?.(id);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const env = await (isElectron ? transport[op](input, id) : transport[op](input, id, signal));
    if (!env.ok) throw new FolioError(env.error);
    return env.result as OutputOf<K>;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

export function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  return folio.on(event, listener);
}
