/**
 * What a change of the data sets off, as one table (CHANGES): which views are told
 * (`data.changed`) and which checks run after it — the category rules over new or all
 * transactions, the alert rules, the closed periods of a wallet or of all. Handlers and the
 * sync say what changed, never what to re-check, so a reaction is added in one place.
 *
 * Each check is coalesced (a burst of changes is one run, off the request's turn) and skipped
 * on a read-only cache or once the core is closing; a check that meets a closed or busy cache
 * runs again at the next change.
 */
import type { PeriodClose } from '../../shared/closes.ts';
import type { DataChanged, EventPayloads } from '../../shared/contract.ts';
import type { Alert, AlertKind } from '../../shared/model.ts';
import { checkAlerts, listAlertRules, postWebhook, recordDelivery, webhookPayload } from './alerts/index.ts';
import { applyRulesToAll, applyRulesToNew, listRules } from './annotations/index.ts';
import { runCloseCheck } from './closes/index.ts';
import { counterpartyNamer } from './counterparties/index.ts';
import { redactText } from './service/index.ts';
import type { Profile, Session } from './session/index.ts';
import { addressKey } from './store/address-key.ts';
import { getSettings } from './store/settings.ts';
import type { Emitter } from './util/emitter.ts';

/** What is checked again after a change. */
type Reaction = 'rules:new' | 'rules:all' | 'alerts' | 'alerts:after-syncs' | 'closes:wallet' | 'closes:all' | 'answers';

/**
 * The alert rules after a finished sync job wait for the jobs still queued or running, at most
 * this long: they read the whole cache (the poisoning guard looks at every payment of every
 * wallet), so checked after each of a thousand wallets' jobs, they cost more than the sync, on
 * the main thread (issue 40: a sync of 30 wallets through a quota took 4.8 × the quota's bound as
 * a process, most of it in these checks between requests). Once after the last job, and at least
 * once a minute while a long sync runs.
 */
export const ALERTS_AFTER_SYNCS_MAX_WAIT_MS = 60_000;

/**
 * Every change the core makes to the data: the views' scope it is told under (null: none of
 * theirs) and what is checked after it. A closed period is checked against anything its figures
 * show (docs/closes.md); the category rules look at what a sync wrote, and at everything when
 * what they match may have changed (a rule, the watched set, the address book's names).
 */
export const CHANGES = {
  // A sync job finished (done, failed or cancelled: what it committed stays).
  // The screens' last answers are asked again once the syncs end (portfolio/warm.ts).
  'transactions.synced': { scope: 'transactions', then: ['rules:new', 'alerts:after-syncs', 'closes:wallet', 'answers'] },
  'positions.synced': { scope: 'positions', then: ['alerts:after-syncs', 'closes:wallet', 'answers'] },
  // Transactions cleared: a poisoning alert about a payment no longer cached is taken back.
  'transactions.cleared': { scope: 'transactions', then: ['alerts'] },
  'positions.cleared': { scope: 'positions', then: [] },
  // A wallet watched or no longer: which transfers are internal changes, so every rule-made category is decided again.
  // (A watched wallet is a known counterparty of the others: the poisoning guard looks again.)
  'wallets.added': { scope: 'wallets', then: ['rules:all', 'alerts'] },
  'wallets.removed': { scope: 'wallets', then: ['rules:all', 'alerts', 'closes:all'] },
  // Wallets added from a file, with their labels and groups.
  'wallets.imported': { scope: 'wallets', then: ['rules:all', 'alerts', 'closes:all'] },
  // A label, a group: what a closed period's pack names.
  'wallets.edited': { scope: 'wallets', then: ['closes:all'] },
  // A scheduled run ended: the wallets' freshness.
  'schedules.ran': { scope: 'wallets', then: [] },
  'settings.edited': { scope: 'settings', then: [] },
  // A name or an 'ours' flag: what the rules match, and a closed period's flows by counterparty;
  // an address named is a known counterparty (the poisoning guard takes back its alert about it).
  'counterparties.edited': { scope: 'counterparties', then: ['rules:all', 'alerts', 'closes:all'] },
  // A note or a category: a closed period's flows by category.
  'annotations.edited': { scope: 'annotations', then: ['closes:all'] },
  // Category rules added from a file (the app's own rule edits apply themselves): applied to what is cached.
  'rules.imported': { scope: 'annotations', then: ['rules:all', 'closes:all'] },
  // Alert rules added from a file: judged over this cache, as a rule saved in the app is at once.
  'alert-rules.imported': { scope: null, then: ['alerts'] },
  'closes.edited': { scope: 'closes', then: [] },
  // A spam verdict or list: every figure leaves spam out (docs/spam.md), so the closes are checked
  // again and the alerts (a token put back can move NAV; a new-counterparty rule ignores spam).
  'spam.edited': { scope: 'spam', then: ['alerts', 'closes:all'] },
} as const satisfies Record<string, { scope: DataChanged['scope'] | null; then: readonly Reaction[] }>;

export type Change = keyof typeof CHANGES;

export interface Reactions {
  /** Tells the views and queues the checks `change` sets off (`wallet`: the wallet it concerns, if one). */
  changed(change: Change, wallet?: string | null): void;
  /** Checks alert rules now (all, some kinds, one rule); what fired is announced and delivered. */
  checkAlertsNow(o?: { kinds?: ReadonlySet<AlertKind>; ruleId?: number }): Alert[];
  /** Alerts the core fired without a rule (a closed period changed): announced and delivered as a rule's are. */
  announce(fired: Alert[]): void;
  /** Runs now what is queued (the rules, the alert rules, the close checks) and waits for it (the core is about to close). */
  settle(): Promise<void>;
  /** The closes the checks after changes found changed (newly flagged, or flagged again with a new finding) since last asked; each once, as last found. */
  takeFlagged(): PeriodClose[];
  /** Whether sync jobs are queued or running (false with no cache open: nothing holds what waits for them). */
  syncsPending(): boolean;
  /** Checks nothing more, and waits for the webhook posts in flight (their outcome is recorded first). */
  stop(): Promise<void>;
}

/**
 * `now`: the core's clock (tests pin it): the time an alert check runs at, fires and resolves at.
 * `warmAnswers`: asks the screens' last requests again once the syncs end (a core that stays open).
 */
export function createReactions(
  session: Session,
  events: Emitter<EventPayloads>,
  now: () => number = Date.now,
  warmAnswers: () => void = () => undefined,
): Reactions {
  let closing = false;
  const usable = (p: Profile) => !closing && !p.readOnly && p.db.open;

  // A fired alert is an event (inbox, desktop notification, `watch`) and, when a webhook is
  // set, one POST that never blocks: its outcome is recorded on the alert.
  const deliveries = new Set<Promise<void>>();
  const deliver = (p: Profile, a: Alert) => {
    const url = getSettings(p.db).alertWebhookUrl;
    if (!url) return;
    const rule = listAlertRules(p.db).find((r) => r.id === a.ruleId) ?? null;
    const task: Promise<void> = (async () => {
      // Built from the cache only; the key is also redacted from it, in case a cached text held it.
      const key = p.mode === 'live' ? await session.secrets.get(p.baseUrl).catch(() => null) : null;
      const delivery = await postWebhook(url, redactText(JSON.stringify(webhookPayload(a, rule)), key));
      if (!p.db.open) return;
      recordDelivery(p.db, a.id, delivery);
    })()
      .catch(() => undefined)
      .finally(() => deliveries.delete(task));
    deliveries.add(task);
  };
  const announce = (fired: Alert[]) => {
    for (const a of fired) {
      events.emit('alert.fired', a);
      deliver(session.profile, a);
    }
  };
  const checkAlertsNow = (o: { kinds?: ReadonlySet<AlertKind>; ruleId?: number } = {}): Alert[] => {
    const p = session.profile;
    if (closing || p.readOnly) return [];
    const fired = checkAlerts(p.db, { ...o, now: now() });
    announce(fired);
    return fired;
  };

  /**
   * Runs `work` once on a later turn however often it is asked for meanwhile; `flush` runs it now
   * if it is asked for and has not run (the core is closing: a CLI command ends right after its
   * edit, before a later turn would come).
   */
  const coalesced = (work: () => void) => {
    let queued = false;
    const run = () => {
      if (!queued) return;
      queued = false;
      work();
    };
    const queue = () => {
      if (queued) return;
      queued = true;
      setImmediate(run);
    };
    return Object.assign(queue, { flush: run });
  };

  const queueAlertCheck = coalesced(() => {
    try {
      checkAlertsNow();
    } catch {
      // Closed under it, or busy: the next sync or timer checks again.
    }
  });

  // The alert check a finished sync job asks for, held while other sync jobs are queued or
  // running (each one's end asks again; the last one's finds none): see ALERTS_AFTER_SYNCS_MAX_WAIT_MS.
  let afterSyncsSince: number | null = null;
  const syncsPending = () => {
    try {
      return session.profile.engine.queue.pending > 0;
    } catch {
      return false; // no cache open: nothing holds it
    }
  };
  let lookAgain: ReturnType<typeof setTimeout> | null = null;
  const queueAlertCheckAfterSyncs = coalesced(() => {
    afterSyncsSince ??= Date.now();
    if (syncsPending() && Date.now() - afterSyncsSince < ALERTS_AFTER_SYNCS_MAX_WAIT_MS) {
      // Looked at again in a second too, should the last job to end be one that asks nothing (an export).
      lookAgain ??= setTimeout(() => {
        lookAgain = null;
        if (afterSyncsSince !== null && !closing) queueAlertCheckAfterSyncs();
      }, 1000);
      lookAgain.unref?.();
      return;
    }
    afterSyncsSince = null;
    queueAlertCheck();
    queueAlertCheck.flush();
  });

  // Category rules (core/annotations): applied to the transactions a sync wrote once its job has
  // finished, off the ingest path (with no rule it only notes how far the cache goes); when what
  // they match may have changed, every rule-made category is decided again (when there is a rule).
  let rulesOver: 'new' | 'all' = 'new';
  const runRules = coalesced(() => {
    const all = rulesOver === 'all';
    rulesOver = 'new';
    const p = session.profile;
    if (!usable(p)) return;
    try {
      const namer = counterpartyNamer(p.db);
      if (all ? listRules(p.db).length && applyRulesToAll(p.db, { namer }).evaluated : applyRulesToNew(p.db, { namer }).categorised) {
        changed('annotations.edited');
      }
    } catch {
      // Closed under it, or busy: the next finished sync (or rule saved) applies them again.
    }
  });
  const queueRules = (over: 'new' | 'all') => {
    if (over === 'all') rulesOver = 'all';
    runRules();
  };

  // Closed periods: the wallets asked for meanwhile are checked in one run; one run at a time.
  let closeCheck: Promise<void> | null = null;
  /** What the next run checks: the closes of these wallets (address keys), every close ('all'), or nothing asked (null). */
  let closeCheckAsked: Set<string> | 'all' | null = null;
  /** What the checks found since `takeFlagged` was last asked, by close: at most one entry per close, so it never grows past the closes. */
  const flaggedSince = new Map<number, PeriodClose>();
  const checkClosesNow = () => {
    const p = session.profile;
    const asked = closeCheckAsked;
    if (closing || p.readOnly || !asked || closeCheck) return;
    closeCheckAsked = null;
    closeCheck = runCloseCheck({ writable: () => p.db, fired: announce }, { wallets: asked === 'all' ? undefined : asked })
      .then(({ flagged }) => {
        for (const c of flagged) flaggedSince.set(c.id, c);
        if (flagged.length) changed('closes.edited');
      })
      .catch(() => undefined) // closed under it, or busy: the next sync or edit checks again
      .finally(() => {
        closeCheck = null;
        // Asked for while it ran (the data may have changed again): another run.
        if (closeCheckAsked) scheduleCloseCheck();
      });
  };
  // A run under way takes nothing new: its end schedules another for what was asked meanwhile.
  const scheduleCloseCheck = coalesced(checkClosesNow);
  const queueCloseCheck = (wallet: string | null | undefined) => {
    if (!wallet) closeCheckAsked = 'all';
    else if (closeCheckAsked !== 'all') {
      closeCheckAsked ??= new Set<string>();
      closeCheckAsked.add(addressKey(wallet));
    }
    scheduleCloseCheck();
  };

  const REACT: Record<Reaction, (wallet: string | null | undefined) => void> = {
    'rules:new': () => queueRules('new'),
    'rules:all': () => queueRules('all'),
    alerts: () => queueAlertCheck(),
    'alerts:after-syncs': () => queueAlertCheckAfterSyncs(),
    'closes:wallet': (wallet) => queueCloseCheck(wallet),
    'closes:all': () => queueCloseCheck(null),
    answers: () => warmAnswers(),
  };

  function changed(change: Change, wallet?: string | null): void {
    const { scope, then } = CHANGES[change];
    if (scope) events.emit('data.changed', { scope, ...(wallet && { wallet }) });
    for (const r of then) REACT[r](wallet);
  }

  return {
    changed,
    checkAlertsNow,
    announce,
    settle: async () => {
      // What an edit or a sync queued is done before the cache closes (a CLI command ends right
      // after its edit): the rules applied, the alert rules checked, then the closed periods
      // checked (the rules may have changed their categories): a change is flagged, and its
      // alert sent, now.
      runRules.flush();
      if (afterSyncsSince !== null) {
        afterSyncsSince = null;
        queueAlertCheck();
      }
      queueAlertCheck.flush();
      scheduleCloseCheck.flush();
      await closeCheck;
      checkClosesNow();
      await closeCheck;
    },
    syncsPending,
    takeFlagged: () => {
      const out = [...flaggedSince.values()];
      flaggedSince.clear();
      return out;
    },
    stop: async () => {
      closing = true;
      // Webhook posts in flight end within their timeout; their outcome is recorded first.
      await Promise.allSettled([...deliveries]);
    },
  };
}
