/**
 * A team server's contract over HTTP (docs/team.md), for the CLI's `folioscope --server URL
 * <command>` (scripts and cron on another machine) and the desktop signed in to a server
 * (client.ts): the same commands and screens against the server rather than a data folder here. The same commands run
 * over the same contract: each operation is a POST of `api/<operation>` with the person's API
 * token (`Authorization: Bearer`, from FOLIOSCOPE_TOKEN), and the jobs a command waits for are
 * followed on the server's event stream. The service's key never comes here: the server holds it,
 * and the server's role gate decides what the token may do.
 */
import type { Core } from '../core/index.ts';
import type { Envelope, EventPayloads } from '../../shared/contract.ts';
import type { EventName } from '../../shared/operations.ts';
import { waitingOutSlowDowns } from '../../shared/slow-down.ts';

/** The environment variable holding the person's API token for `--server`. */
export const ENV_TOKEN = 'FOLIOSCOPE_TOKEN';

/** Why a server address cannot be used, or null: a token is never sent in clear beyond this machine. */
export function serverProblem(server: string): string | null {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return `--server ${server.slice(0, 80)} is not a URL: give the team server's address, e.g. https://books.example.org`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `--server must be an https:// address (or http:// on this machine)`;
  if (url.username || url.password) return `--server takes no name or password in the address: the token goes in ${ENV_TOKEN}`;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && !loopback)
    return `--server ${url.origin} is plain http on another machine: the token would cross the network in clear. Use the server's https:// address.`;
  return null;
}

/**
 * A Core that is a team server far away: the contract over HTTP, events from its stream. The
 * token is tried first (a refused one stops here, saying so), and the event stream is open before
 * any command runs: a job a command starts cannot end unseen between its start and the stream.
 */
export interface RemoteOptions {
  /** Where the token came from, for the sentence of a refused one (default: the environment's FOLIOSCOPE_TOKEN). */
  tokenFrom?: string;
  /** The server's event stream ended without the core being closed (the server stopped, the network went). */
  onStreamEnd?: () => void;
}

export async function remoteCore(server: string, token: string, o: RemoteOptions = {}): Promise<Core> {
  const origin = new URL(server).origin;
  const refusedToken = `The team server at ${origin} refused ${o.tokenFrom ?? `the token in ${ENV_TOKEN}`}: it is unknown, revoked, or its person is disabled.`;
  const headers = { authorization: `Bearer ${token}` };
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let stream: AbortController | null = null;

  async function dispatch(op: string, input: unknown, options: { signal?: AbortSignal } = {}): Promise<Envelope<unknown>> {
    let res: Response;
    try {
      // A person over their allowance is asked to wait (team/request-limits.ts): a cron job waits and goes on.
      res = await waitingOutSlowDowns(
        () =>
          fetch(`${origin}/api/${encodeURIComponent(op)}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: input === undefined ? '' : JSON.stringify(input),
            ...(options.signal && { signal: options.signal }),
          }),
        { signal: options.signal },
      );
    } catch (err) {
      if (options.signal?.aborted) return failed('cancelled', 'Cancelled: the answer is no longer needed.');
      return failed('network', unreachable(origin, err), true);
    }
    const text = await res.text();
    if (res.status === 401) return failed('unauthenticated', refusedToken);
    try {
      return JSON.parse(text) as Envelope<unknown>;
    } catch {
      return failed('network', `The team server at ${origin} answered HTTP ${res.status} without an answer of the contract.`, res.status >= 500);
    }
  }

  /** The server's events, read from one stream (open once the server has said it is connected) until the core is closed. */
  async function listen(): Promise<void> {
    const controller = new AbortController();
    stream = controller;
    let res: Response;
    try {
      res = await fetch(`${origin}/api/events`, { headers, signal: controller.signal });
    } catch (err) {
      throw new Error(unreachable(origin, err), { cause: err });
    }
    if (res.status === 401) throw Object.assign(new Error(refusedToken), { unauthenticated: true });
    if (!res.ok || !res.body) throw new Error(`The team server at ${origin} answered HTTP ${res.status} for its event stream.`);
    const body = res.body;
    let connected!: () => void;
    const open = new Promise<void>((resolve) => (connected = resolve));
    void (async () => {
      try {
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          connected();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.+)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (!name || data === undefined) continue;
            for (const l of listeners.get(name as EventName) ?? []) l(JSON.parse(data) as never);
          }
        }
      } catch {
        // Closed with the core (aborted), or the server went away: a command waiting for a job
        // also reads the job list, and says what it could not learn.
      } finally {
        connected();
        if (stream === controller) o.onStreamEnd?.();
      }
    })();
    await open;
  }

  const request = async (op: string, input: unknown): Promise<unknown> => {
    const res = await dispatch(op, input);
    if (!res.ok) throw new Error(res.error.message);
    return res.result;
  };
  const people = new Proxy({} as Core['people'], {
    get() {
      throw new Error("The team server's people are kept on its machine: run folioscope users there, with its --data-dir.");
    },
  });
  await listen();
  return {
    dispatch,
    request: request as Core['request'],
    call: request as Core['call'],
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      return () => void set.delete(listener as (payload: never) => void);
    },
    demoService: () => null,
    people,
    replica: async () => {
      throw new Error("A team server's copy of the books is made on its machine: the desktop app downloads it (Settings → Team).");
    },
    close: async () => {
      stream?.abort();
      stream = null;
    },
  };
}

/** Why the server could not be reached, in one sentence: fetch's own cause (ECONNREFUSED, a TLS error …) named. */
export function unreachable(origin: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `The team server at ${origin} could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message}).`;
}

function failed(kind: string, message: string, retryable = false): Envelope<unknown> {
  return { ok: false, error: { kind, message, retryable } };
}
