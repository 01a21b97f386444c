/**
 * The closed periods' operations: list, one close with its stored figures, close a scope's
 * period (month or two cached dates, as `pack.get` takes them), reopen with a reason, and check
 * the closes in force against their data now.
 */
import { withBoundedHeap } from '../heap.ts';
import type { Alert } from '../../../shared/model.ts';
import type { CloseScope, PeriodClose, PeriodCloseDetail } from '../../../shared/closes.ts';
import type { Handlers } from '../handlers.ts';
import type { WritableDB } from '../store/handles.ts';
import { getClose, listCloses, summaryOf, type StoredClose } from './store/closes.ts';
import { getGroup } from '../store/groups.ts';
import { refusal } from '../store/validation.ts';
import { scopeNameOf, scopePack, packPeriod, type PackContext } from '../pack/index.ts';
import { approvePeriod, checkClose, closePeriod, closesToCheck, rejectPeriod, reopenPeriod } from './closes.ts';

export interface CloseContext extends PackContext {
  /** The cache to write (closes, checks, reopens). */
  writable(): WritableDB;
  /** Alerts a check fired: announced and sent to the webhook as a rule's are. */
  fired(alerts: Alert[]): void;
  /**
   * A team server's core (CoreOptions.team): a close is prepared by one person and approved by
   * another, so `closes.close` (both at once) is refused and so is approving your own. Without it
   * (a desktop, the CLI on its own cache, the loopback web shell) one person may do both, and the
   * close says so.
   */
  team?: boolean | undefined;
  /** A close was prepared, approved or rejected: the screens that list closes read them again. */
  edited?: (() => void) | undefined;
}

const detail = (c: StoredClose): PeriodCloseDetail => {
  const { basis: _basis, namesText: _namesText, ...rest } = c;
  return rest;
};

/**
 * Checks the closes in force and hands on the alerts fired; the newly flagged closes. A close's
 * hash reads all of its period's transactions (bench/RESULTS.md, "Closed periods: the cost of a
 * check"): between closes the event loop gets a turn (`turn`), so a check of many never holds
 * up the app's other requests for longer than one close takes. With `wallets` (address keys), only the
 * closes with one of them as a member: what a sync job of those wallets can have changed.
 */
export async function runCloseCheck(
  c: Pick<CloseContext, 'writable' | 'fired'>,
  o: { wallets?: ReadonlySet<string> | undefined; turn?: () => Promise<void> } = {},
) {
  const turn = o.turn ?? (() => new Promise<void>((r) => setImmediate(r)));
  const ids = closesToCheck(c.writable(), o.wallets);
  const flagged: PeriodClose[] = [];
  for (const [i, id] of ids.entries()) {
    if (i) await turn();
    const db = c.writable();
    if (!db.open) break;
    const found = checkClose(db, id);
    if (!found) continue;
    flagged.push(summaryOf(found.close));
    if (found.alert) c.fired([found.alert]);
  }
  return { checked: ids.length, flagged };
}

type CloseOperations = 'closes.list' | 'closes.get' | 'closes.close' | 'closes.prepare' | 'closes.approve' | 'closes.reject' | 'closes.reopen' | 'closes.check';

export function closeHandlers(c: CloseContext): Pick<Handlers, CloseOperations> {
  const team = c.team ?? false;
  /** Prepares (closed false) or closes at once (closed true) a scope's period as pack.get takes it. */
  const prepare = ({ wallet, group, ...period }: Parameters<Handlers['closes.close']>[0], closed: boolean): PeriodCloseDetail => {
    const { from, to } = packPeriod(period);
    const wallets = c.scopeWallets(wallet, group);
    const g = group === undefined ? undefined : getGroup(c.db(), group);
    const w = wallet ? wallets[0]! : undefined;
    const scope: CloseScope = {
      kind: g ? 'group' : w ? 'wallet' : 'all',
      wallet: w?.address ?? null,
      group: group ?? null,
      name: scopeNameOf({ group: g, wallet: w }),
      members: wallets.map((x) => x.address),
    };
    // The daily sums the reconciliation reads, brought up to date before the close's transaction.
    c.keepTransferDays?.(scope.members);
    const made = closePeriod(c.writable(), {
      scope,
      from,
      to,
      closed,
      // A fund's pack parses every snapshot of its dates: the heap is kept near what it holds (../heap.ts).
      buildPack: () => withBoundedHeap(() => scopePack(c.db(), { wallets, from, to, scope: scope.name })),
    });
    c.edited?.();
    return detail(made);
  };
  return {
    'closes.list': (input) => listCloses(c.db(), { from: input?.from, to: input?.to }).map(summaryOf),
    'closes.get': ({ id }) => {
      const found = getClose(c.db(), id);
      if (!found) throw refusal('id', 'close.missing', { id });
      return detail(found);
    },
    // Prepared and approved at once by the same person (a desktop alone): not on a team server.
    'closes.close': (input) => {
      if (team) throw refusal('id', 'close.teamPrepares', {});
      return prepare(input, true);
    },
    'closes.prepare': (input) => prepare(input, false),
    'closes.approve': ({ id }) => {
      const approved = approvePeriod(c.writable(), id, { team });
      c.edited?.();
      return detail(approved);
    },
    'closes.reject': ({ id, reason }) => {
      const rejected = summaryOf(rejectPeriod(c.writable(), id, reason));
      c.edited?.();
      return rejected;
    },
    'closes.reopen': ({ id, reason }) => {
      const reopened = summaryOf(reopenPeriod(c.writable(), id, reason));
      c.edited?.();
      return reopened;
    },
    'closes.check': () => runCloseCheck(c),
  };
}
