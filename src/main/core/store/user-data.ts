/**
 * Applies an import of the user's own data (planned by userdata/plan.ts) in one transaction:
 * every wallet, group, schedule and setting of it, or, when any write fails, none of them.
 */
import type { WritableDB } from './db.ts';
import { addWallet, updateWallet } from './wallets.ts';
import { listGroups, saveGroup } from './groups.ts';
import { saveSchedule } from './schedules.ts';
import { updateSettings, type SettingsChanges } from './settings.ts';
import { ValidationError } from './validation.ts';
import type { Cadence, ScheduleScope } from '../../../shared/model.ts';
import type { WalletChanges, WalletInput } from '../../../shared/contract.ts';

export interface UserDataImport {
  addWallets: Array<WalletInput & { createdAt?: string }>;
  updateWallets: Array<{ address: string; changes: WalletChanges }>;
  /** New groups (no id) and groups replaced (their id here). */
  saveGroups: Array<{ id?: number; name: string; wallets: string[] }>;
  /** Schedules of a group name it by name: its id is known once the groups are saved. */
  addSchedules: Array<{
    scope: Exclude<ScheduleScope, { kind: 'group' }> | { kind: 'group'; name: string };
    what: 'positions' | 'transactions' | 'both';
    cadence: Cadence;
  }>;
  settings: SettingsChanges;
}

export function applyUserData(db: WritableDB, w: UserDataImport): void {
  db.transaction(() => {
    for (const { createdAt, ...input } of w.addWallets) addWallet(db, input, createdAt ? new Date(createdAt) : new Date());
    for (const u of w.updateWallets) updateWallet(db, u.address, u.changes);
    for (const g of w.saveGroups) saveGroup(db, g);
    const groups = listGroups(db);
    for (const s of w.addSchedules) {
      let scope: ScheduleScope;
      if (s.scope.kind === 'group') {
        const name = s.scope.name.toLowerCase();
        const g = groups.find((x) => x.name.toLowerCase() === name);
        if (!g) throw new ValidationError('file', `A schedule names the group "${s.scope.name}", which is not here. Nothing was imported.`);
        scope = { kind: 'group', id: g.id };
      } else scope = s.scope;
      saveSchedule(db, { scope, what: s.what, cadence: s.cadence });
    }
    if (Object.keys(w.settings).length) updateSettings(db, w.settings);
  }).immediate();
}
