/**
 * What a capability's handlers are and how the core combines them (Actual's
 * `loot-core/src/server` createApp/combine is the model): each part of the core that answers
 * operations exports a function from a context to the handlers of its operations, and app.ts
 * puts them together; the type check fails if an operation has no handler, or two.
 */
import type { OutputOf, ParsedInputOf } from '../../shared/contract.ts';
import type { ScheduleScope, Wallet } from '../../shared/model.ts';
import type { OperationName } from '../../shared/operations.ts';
import type { ReadableDB } from './store/handles.ts';

/**
 * What a handler is given beside its input: the signal of a caller that may stop wanting the
 * answer (a view left, a newer request made). Long work checks it and stops (VS Code's
 * IChannel.call(…, CancellationToken) is the model); most handlers are quick and ignore it.
 */
export interface HandlerContext {
  signal: AbortSignal;
  /** Asked by the core itself in the background (portfolio/warm.ts), not by a person. */
  background?: boolean;
  /** The team server's signed-in person who asked (none in the app, the loopback web shell or the CLI on its own cache). */
  person?: string;
}

export type Handlers = { [K in OperationName]: (input: ParsedInputOf<K>, ctx: HandlerContext) => Promise<OutputOf<K>> | OutputOf<K> };

/**
 * What the read handlers of a scope need from the core: the current cache (the profile changes
 * when the user switches service) and the one reading of "a wallet, a group, or all".
 */
export interface ScopeContext {
  db(): ReadableDB;
  /** The wallet, or a ValidationError naming it. */
  wallet(address: string): Wallet;
  /** One wallet, a group's members, or (undefined) all; both given is refused. */
  scopeOf(address: string | undefined, group: number | undefined): string[] | undefined;
  /** The watched wallets a wallet, a group or (neither) all stand for, in the order they are watched. */
  scopeWallets(address: string | undefined, group: number | undefined): Wallet[];
  /** A scope as stored (a schedule's, an alert rule's): a wallet's address as the wallets list keeps it; a wallet or group that does not exist is refused. */
  storedScope(scope: ScheduleScope): ScheduleScope;
}

type KeysOfAll<P extends readonly object[]> = { [I in keyof P]: keyof P[I] }[number];
type Unanswered<P extends readonly object[]> = Exclude<OperationName, KeysOfAll<P>>;

/**
 * The parts' handlers as one: an operation no part answers is a type error here (its name in
 * the message), and one answered by two parts is refused when the core starts.
 */
export function combine<const P extends readonly Partial<Handlers>[]>(
  ...parts: P & ([Unanswered<P>] extends [never] ? unknown : { 'operations without a handler': Unanswered<P> })
): Handlers {
  const all: Record<string, unknown> = {};
  for (const part of parts as readonly Partial<Handlers>[]) {
    for (const [op, handler] of Object.entries(part)) {
      if (Object.hasOwn(all, op)) throw new Error(`Two parts of the core answer ${op}: one operation, one handler.`);
      all[op] = handler;
    }
  }
  return all as Handlers;
}
