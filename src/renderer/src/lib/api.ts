/**
 * The renderer's one way in: the contract's operations, from the Electron preload
 * (`window.folio`, over IPC) or, in the web shell, over HTTP with server-sent events.
 * Both carry result envelopes; this unwraps them, throwing a FolioError on failure.
 */

import type { Envelope, EventPayloads, FolioApi, InputOf, OutputOf } from '../../../shared/contract.ts';
import type { SerializedError } from '../../../shared/model.ts';
import { words } from './words.ts';
import { EVENT_NAMES, type EventName, OPERATION_NAMES, type OperationName } from '../../../shared/operations.ts';

export class FolioError extends Error {
  readonly kind: string;
  readonly field: string | undefined;
  readonly retryable: boolean;
  constructor(e: SerializedError) {
    super(e.message);
    this.kind = e.kind;
    this.field = e.field;
    this.retryable = e.retryable;
  }
}

type Raw = { [K in OperationName]: (input?: unknown) => Promise<Envelope<OutputOf<K>>> } & {
  on(event: string, listener: (payload: unknown) => void): () => void;
};

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

function httpTransport(): Raw {
  const raw: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    raw[name] = async (input?: unknown) => {
      let res: Response;
      try {
        res = await fetch(`${API_BASE}${name}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: input === undefined ? '' : JSON.stringify(input),
        });
      } catch {
        return { ok: false, error: { kind: 'shell-offline', message: words.api.serverDown, retryable: true } };
      }
      if (res.status === 401) return { ok: false, error: { kind: 'forbidden', message: words.api.lostToken, retryable: false } };
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

export const folio: FolioApi = unwrap(typeof window !== 'undefined' && window.folio ? window.folio : httpTransport());

/** Calls an operation; the shape every view uses. */
export function call<K extends OperationName>(op: K, input: InputOf<K>): Promise<OutputOf<K>> {
  return (folio[op] as (i: InputOf<K>) => Promise<OutputOf<K>>)(input);
}

export function on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
  return folio.on(event, listener);
}

export const isElectron = typeof window !== 'undefined' && !!window.folio;
