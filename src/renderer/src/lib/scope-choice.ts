import type { ScheduleScope } from '../../../shared/model.ts';
import { label, shortAddress } from './format.ts';
import { groupsState } from './groups.svelte.ts';
import { appState } from './store.svelte.ts';
import { words } from './words.ts';

/**
 * The "Wallets" choice of a schedule or an alert rule as one select's value: `all`,
 * `group:<id>` or `wallet:<address>`, and back.
 */
export function scopeOfChoice(choice: string): ScheduleScope {
  if (choice.startsWith('group:')) return { kind: 'group', id: Number(choice.slice('group:'.length)) };
  if (choice.startsWith('wallet:')) return { kind: 'wallet', address: choice.slice('wallet:'.length) };
  return { kind: 'all' };
}

/** A scope in words, as lists of schedules and rules show it: "all wallets", "Group: Fund I", a wallet's label. */
export function scopeInWords(s: ScheduleScope): string {
  if (s.kind === 'all') return words.schedules.scopeAll.toLowerCase();
  if (s.kind === 'group') return words.schedules.scopeGroup(label(groupsState.list.find((g) => g.id === s.id)?.name ?? String(s.id)));
  const w = appState.wallets.find((x) => x.address === s.address);
  return w?.label ? label(w.label) : shortAddress(s.address);
}
