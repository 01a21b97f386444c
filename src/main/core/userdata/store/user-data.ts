/**
 * Applies an import of the user's own data (planned by userdata/plan.ts) in one transaction:
 * every wallet, group, schedule, alert rule, category, category rule, note, setting, closed period, spam verdict and spam list of it, or, when any write fails, none of them.
 */
import type { WritableDB } from '../../store/db.ts';
import { addWallet, updateWallet } from '../../store/wallets.ts';
import { listGroups, saveGroup } from '../../store/groups.ts';
import { saveSchedule } from '../../schedule/index.ts';
import { insertAlertRule } from '../../alerts/index.ts';
import { updateSettings, type SettingsChanges } from '../../store/settings.ts';
import { ValidationError } from '../../store/validation.ts';
import { saveCategory, saveRule, setAnnotation, type CategoryInput, type RuleInput, type TxnKey } from '../../annotations/index.ts';
import { writeCounterparty, type CounterpartyEntry } from '../../counterparties/index.ts';
import type { AlertCondition, Cadence, ScheduleScope } from '../../../../shared/model.ts';
import type { WalletChanges, WalletInput } from '../../../../shared/contract.ts';
import type { MonthlyPack } from '../../../../shared/pack.ts';
import { importClose, reopenClose } from '../../closes/index.ts';
import type { BasisSnapshot } from '../../positions/index.ts';
import { putSpamList, writeSpamMark, type SpamMarkKey, type StoredSpamList } from '../../spam/index.ts';
import type { SpamMarkVerdict } from '../../../../shared/spam.ts';

/** A schedule's or an alert rule's scope, a group by name. */
export type ScopeByName = Exclude<ScheduleScope, { kind: 'group' }> | { kind: 'group'; name: string };

export interface UserDataImport {
  addWallets: Array<WalletInput & { createdAt?: string }>;
  updateWallets: Array<{ address: string; changes: WalletChanges }>;
  /** New groups (no id) and groups replaced (their id here). */
  saveGroups: Array<{ id?: number; name: string; wallets: string[] }>;
  /** Schedules of a group name it by name: its id is known once the groups are saved. */
  addSchedules: Array<{ scope: ScopeByName; what: 'positions' | 'transactions' | 'both'; cadence: Cadence }>;
  /** Alert rules, their groups by name as schedules'. */
  addAlertRules: Array<{ scope: ScopeByName; condition: AlertCondition }>;
  /** Categories added (no id) or changed (their id here). */
  saveCategories: CategoryInput[];
  /** Rules added, after those here, in the file's order. */
  addRules: RuleInput[];
  /** Notes and manual categories set (a transaction not cached keeps its note, orphaned, until it is). */
  setNotes: Array<{ key: TxnKey; note: string | null; category: string | null }>;
  settings: SettingsChanges;
  /** Address-book entries to add or replace (checked by counterparties/entry.ts). */
  saveCounterparties: CounterpartyEntry[];
  /** Closed periods as the file holds them; `replaces`: the close in force here that the file's takes the place of (reopened first). */
  addCloses: Array<{
    scopeKind: 'all' | 'wallet' | 'group';
    wallet: string | null;
    groupName: string | null;
    name: string;
    members: string[];
    from: string;
    to: string;
    closedAt: string;
    figures: object;
    hash: string;
    parts: Record<string, string>;
    basis: BasisSnapshot[];
    reopenedAt: string | null;
    reopenReason: string | null;
    closedBy?: string | undefined;
    reopenedBy?: string | undefined;
    preparedAt?: string | undefined;
    preparedBy?: string | undefined;
    replaces: number | null;
  }>;
  /** Spam verdicts to add or replace (checked by spam/verdicts.ts), each an audited edit. */
  saveSpamVerdicts: Array<{ key: SpamMarkKey; verdict: SpamMarkVerdict; note: string }>;
  /** Spam lists to add or replace, by name (checked by spam/verdicts.ts cleanCarriedList), with their time and hash; each an audited edit. */
  saveSpamLists: StoredSpamList[];
}

export function applyUserData(db: WritableDB, w: UserDataImport): void {
  db.transaction(() => {
    for (const { createdAt, ...input } of w.addWallets) addWallet(db, input, createdAt ? new Date(createdAt) : new Date());
    for (const u of w.updateWallets) updateWallet(db, u.address, u.changes);
    for (const g of w.saveGroups) saveGroup(db, g);
    const groups = listGroups(db);
    const scopeOf = (scope: ScopeByName, what: string): ScheduleScope => {
      if (scope.kind !== 'group') return scope;
      const name = scope.name.toLowerCase();
      const g = groups.find((x) => x.name.toLowerCase() === name);
      if (!g) throw new ValidationError('file', `${what} names the group "${scope.name}", which is not here. Nothing was imported.`);
      return { kind: 'group', id: g.id };
    };
    for (const s of w.addSchedules) saveSchedule(db, { scope: scopeOf(s.scope, 'A schedule'), what: s.what, cadence: s.cadence });
    const now = new Date();
    for (const r of w.addAlertRules) insertAlertRule(db, { scope: scopeOf(r.scope, 'An alert rule'), condition: r.condition }, now);
    for (const c of w.saveCategories) saveCategory(db, c, now);
    for (const r of w.addRules) saveRule(db, r, now);
    for (const n of w.setNotes) setAnnotation(db, n.key, { note: n.note, category: n.category }, { allowOrphan: true, now });
    if (Object.keys(w.settings).length) updateSettings(db, w.settings);
    for (const c of w.saveCounterparties) writeCounterparty(db, c, now);
    for (const c of w.addCloses) {
      if (c.replaces !== null) reopenClose(db, c.replaces, `Replaced by the close of ${c.closedAt} from an imported data file.`, now);
      // A group by its name here (none: it is not here, and the close is kept as history of it).
      const group = c.groupName === null ? null : (groups.find((g) => g.name.toLowerCase() === c.groupName!.toLowerCase())?.id ?? null);
      importClose(db, {
        scope: { kind: c.scopeKind, wallet: c.wallet, group, name: c.name, members: c.members },
        from: c.from,
        to: c.to,
        pack: c.figures as MonthlyPack,
        hash: c.hash,
        parts: c.parts,
        basis: c.basis,
        closedAt: c.closedAt,
        reopenedAt: c.reopenedAt,
        reopenReason: c.reopenReason,
        closedBy: c.closedBy ?? null,
        reopenedBy: c.reopenedBy ?? null,
        preparedAt: c.preparedAt ?? null,
        preparedBy: c.preparedBy ?? null,
      });
    }
    for (const v of w.saveSpamVerdicts) writeSpamMark(db, v.key, v.verdict, v.note, now);
    for (const l of w.saveSpamLists) putSpamList(db, l, now);
  }).immediate();
}
