/**
 * Exporting the user's own data from the cache, and planning an import of a data file: what
 * each item of the file would do here (added, changed, unchanged, or a conflict), and the
 * writes that do it, applied in one transaction by store/user-data.ts.
 *
 * The rule (docs/data-format.md): an item that only adds or relabels (a new wallet, group,
 * schedule or alert rule; another label or tags; a setting) is applied; an item that disagrees
 * with what is here about what is tracked (a wallet watched on other chains, a group of the same
 * name with other members) is a conflict, and any conflict blocks the whole import unless `replace`
 * asks for the file's version. A file that names a wallet or group it does not hold and that
 * is not here (in a group, a schedule or an alert rule) is refused whole. Nothing is removed.
 */
import type { AlertCondition, ImportItem, ImportItemState, ScheduleScope, UserDataPreview, RuleConditions } from '../../../shared/model.ts';
import type { ReadableDB } from '../store/db.ts';
import { listGroups } from '../store/groups.ts';
import { listSchedules } from '../schedule/index.ts';
import { listAlertRules } from '../alerts/index.ts';
import { getSettings, type Settings } from '../store/settings.ts';
import type { UserDataImport } from './store/user-data.ts';
import { normaliseAddress, normaliseChains, ValidationError } from '../store/validation.ts';
import { getWallet, listWallets } from '../store/wallets.ts';
import { describeCadence } from '../schedule/index.ts';
import { describeCondition } from '../alerts/index.ts';
import { USER_DATA_FORMAT, USER_DATA_VERSION, type UserData, type UserDataAlertRule, type UserDataClosedPeriod, type UserDataSchedule } from './format.ts';
import { listCloses } from '../closes/index.ts';
import { addressKey } from '../store/address-key.ts';
import { cleanConditions, cleanNote, getAnnotation, listAnnotations, listCategories, listRules, storedKey } from '../annotations/index.ts';
import { unsafeCharsProblem } from '../../../shared/text-safety.ts';
import { describeConditions } from '../../../shared/annotations.ts';
import { listCounterparties } from '../counterparties/index.ts';
import { cleanEntry, sameEntry } from '../counterparties/index.ts';
import {
  cleanCarriedList,
  cleanMarkKey,
  cleanMarkNote,
  getSpamMark,
  listSpamMarks,
  listStoredSpamLists,
  markItem,
  type SpamMarkKey,
  type StoredSpamList,
} from '../spam/index.ts';

type FileScope = UserDataSchedule['scope'];

/** The user's own data as a version 1 document: no service data, no fired alerts, no key, no base URL. */
export function exportUserData(db: ReadableDB, app: string, now = new Date()): UserData {
  const groups = listGroups(db).sort((a, b) => a.id - b.id);
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  /** A scope with its group by name; null for a group since removed (its schedule runs nothing, its rule judges nothing: not carried over). */
  const byName = (scope: ScheduleScope): FileScope | null => {
    if (scope.kind !== 'group') return scope;
    const name = groupName.get(scope.id);
    return name === undefined ? null : { kind: 'group', name };
  };
  const schedules: UserDataSchedule[] = listSchedules(db).flatMap((s) => {
    const scope = byName(s.scope);
    return scope ? [{ scope, what: s.what, cadence: s.cadence, zone: s.zone }] : [];
  });
  const alertRules: UserDataAlertRule[] = listAlertRules(db).flatMap((r) => {
    const scope = byName(r.scope);
    return scope ? [{ scope, condition: r.condition }] : [];
  });
  // Closes oldest first (an import adds them in this order, so a reopened one comes before the close that followed it).
  // A prepared close waiting for approval, or one rejected, is not books of record: only closes
  // that were closed (in force or reopened since) are carried.
  const closedPeriods: UserDataClosedPeriod[] = listCloses(db)
    .reverse()
    .flatMap((c) => (c.closedAt === null ? [] : [{ ...c, closedAt: c.closedAt }]))
    .map((c) => ({
      scope:
        c.scope.kind === 'all'
          ? { kind: 'all' }
          : c.scope.kind === 'wallet'
            ? { kind: 'wallet', address: c.scope.wallet! }
            : { kind: 'group', name: c.scope.name },
      name: c.scope.name,
      members: c.scope.members,
      from: c.from,
      to: c.to,
      closedAt: c.closedAt,
      figures: c.pack as unknown as UserDataClosedPeriod['figures'],
      hash: c.hash,
      parts: c.parts,
      basis: c.basis,
      reopenedAt: c.reopenedAt,
      reopenReason: c.reopenReason,
      ...(c.closedBy !== null && { closedBy: c.closedBy }),
      ...(c.reopenedBy !== null && { reopenedBy: c.reopenedBy }),
      ...(c.preparedAt !== null && { preparedAt: c.preparedAt }),
      ...(c.preparedBy !== null && { preparedBy: c.preparedBy }),
    }));
  // The service's own settings stay with its cache (format.ts SettingsV1).
  const { baseUrl: _baseUrl, recentWindowHours: _recentWindow, ...settings } = getSettings(db);
  return {
    format: USER_DATA_FORMAT,
    version: USER_DATA_VERSION,
    exportedAt: now.toISOString(),
    app,
    data: {
      wallets: listWallets(db).map((w) => ({ address: w.address, label: w.label, tags: w.tags, chains: w.chains, createdAt: w.createdAt })),
      groups: groups.map((g) => ({ name: g.name, wallets: g.wallets })),
      schedules,
      alertRules,
      categories: listCategories(db).map((c) => ({ name: c.name, colour: c.colour, kind: c.kind })),
      rules: listRules(db).map((r) => ({ name: r.name, category: r.category, conditions: r.conditions })),
      notes: listAnnotations(db).map((a) => ({ wallet: a.wallet, chain: a.chain, txnHash: a.txnHash, note: a.note, category: a.manualCategory })),
      settings,
      counterparties: listCounterparties(db).map((c) => ({ address: c.address, name: c.name, tags: c.tags, ours: c.ours, chains: c.chains, note: c.note })),
      closedPeriods,
      spamVerdicts: listSpamMarks(db).map((m) => ({ kind: m.kind, chain: m.chain, target: m.target, wallet: m.wallet, verdict: m.verdict, note: m.note })),
      spamLists: listStoredSpamLists(db).map((l) => ({
        name: l.name,
        importedAt: l.importedAt,
        sha256: l.sha256,
        list: JSON.parse(l.list) as Record<string, unknown>,
      })),
    },
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameSet = (a: readonly string[], b: readonly string[]) => sameList([...a].sort(), [...b].sort());
const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '(none)');
const show = (v: unknown) => JSON.stringify(v);
/** A condition as a key: its members in one order (a rule stored here and one read from a file may list them in another). */
const conditionKey = (c: AlertCondition) => JSON.stringify(Object.entries(c).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** What importing `doc` here would do, item by item, and the writes that do it. */
export function planImport(db: ReadableDB, doc: UserData, o: { encrypted: boolean; replace: boolean }): { preview: UserDataPreview; writes: UserDataImport } {
  const items: ImportItem[] = [];
  const writes: UserDataImport = {
    addWallets: [],
    updateWallets: [],
    saveGroups: [],
    addSchedules: [],
    addAlertRules: [],
    settings: {},
    saveCounterparties: [],
    saveCategories: [],
    addRules: [],
    setNotes: [],
    addCloses: [],
    saveSpamVerdicts: [],
    saveSpamLists: [],
  };
  const item = (kind: ImportItem['kind'], key: string, state: ImportItemState, detail = '') => items.push({ kind, key, state, detail });

  // Wallets: by address, as the wallets list keeps it (an EVM address in lower case).
  const fileWallets = new Map<string, string>(); // address key → the address as it will be stored
  for (const [i, w] of doc.data.wallets.entries()) {
    let chains: string[];
    let address: string;
    try {
      chains = normaliseChains(w.chains);
      address = normaliseAddress(w.address, chains);
    } catch (err) {
      throw new ValidationError('file', `Wallet ${i + 1} of the file (${w.address.slice(0, 60)}): ${(err as Error).message} Nothing was imported.`);
    }
    if (fileWallets.has(addressKey(address))) throw new ValidationError('file', `The file lists the wallet ${address} twice. Nothing was imported.`);
    fileWallets.set(addressKey(address), address);
    const here = getWallet(db, address);
    if (!here) {
      item('wallet', address, 'added', `${w.label ? `"${w.label}" ` : ''}on ${list(chains)}`);
      writes.addWallets.push({ address, chains, label: w.label, tags: w.tags, ...(w.createdAt && { createdAt: w.createdAt }) });
      continue;
    }
    const changes: string[] = [];
    if (here.label !== w.label.trim()) changes.push(`label ${show(here.label)} → ${show(w.label.trim())}`);
    if (!sameList(here.tags, w.tags)) changes.push(`tags ${list(here.tags)} → ${list(w.tags)}`);
    if (!sameSet(here.chains, chains)) {
      item('wallet', here.address, 'conflict', `chains differ: here ${list(here.chains)}; in the file ${list(chains)}`);
      if (o.replace) writes.updateWallets.push({ address: here.address, changes: { label: w.label, tags: w.tags, chains } });
      continue;
    }
    if (!sameList(here.chains, chains)) changes.push(`chain order ${list(here.chains)} → ${list(chains)}`);
    if (changes.length) {
      item('wallet', here.address, 'changed', changes.join('; '));
      writes.updateWallets.push({ address: here.address, changes: { label: w.label, tags: w.tags, chains } });
    } else item('wallet', here.address, 'unchanged');
  }
  /** A member or a schedule's wallet: one of the file's, or one watched here; else the file is refused. */
  const walletOf = (a: string, where: string): string => {
    const found = fileWallets.get(addressKey(a)) ?? getWallet(db, a)?.address;
    if (!found)
      throw new ValidationError('file', `${where} names the wallet ${a.slice(0, 80)}, which is neither in the file nor watched here. Nothing was imported.`);
    return found;
  };

  // Groups: by name (in any case, as group names are unique here).
  const groupsHere = listGroups(db);
  const fileGroups = new Set<string>();
  for (const g of doc.data.groups) {
    const name = g.name.trim();
    if (fileGroups.has(name.toLowerCase())) throw new ValidationError('file', `The file lists the group "${name}" twice. Nothing was imported.`);
    fileGroups.add(name.toLowerCase());
    const members = [...new Set(g.wallets.map((a) => walletOf(a, `The group "${name}"`)))];
    const here = groupsHere.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!here) {
      item('group', name, 'added', `${members.length} wallet${members.length === 1 ? '' : 's'}`);
      writes.saveGroups.push({ name, wallets: members });
    } else if (sameSet(here.wallets, members)) item('group', here.name, 'unchanged');
    else {
      const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
      const hereOnly = only(here.wallets, members);
      const fileOnly = only(members, here.wallets);
      item(
        'group',
        here.name,
        'conflict',
        `other members: ${[hereOnly.length ? `only here ${list(hereOnly)}` : '', fileOnly.length ? `only in the file ${list(fileOnly)}` : ''].filter(Boolean).join('; ')}`,
      );
      if (o.replace) writes.saveGroups.push({ id: here.id, name: here.name, wallets: members });
    }
  }

  /** A schedule's or an alert rule's scope as it will be stored: its wallet as watched, its group by name; else the file is refused. */
  const scopeOf = (scope: FileScope, what: string): FileScope => {
    if (scope.kind === 'wallet') return { kind: 'wallet', address: walletOf(scope.address, what) };
    if (scope.kind !== 'group') return scope;
    const name = scope.name.trim();
    const known = fileGroups.has(name.toLowerCase()) || groupsHere.some((g) => g.name.toLowerCase() === name.toLowerCase());
    if (!known) throw new ValidationError('file', `${what} names the group "${name}", which is neither in the file nor here. Nothing was imported.`);
    return { kind: 'group', name };
  };
  const scopeKey = (s: FileScope) =>
    s.kind === 'all' ? 'all wallets' : s.kind === 'wallet' ? `wallet ${s.address}` : `group "${s.name.trim().toLowerCase()}"`;
  const scopeShown = (s: FileScope) => (s.kind === 'all' ? 'all wallets' : s.kind === 'wallet' ? s.address : `group "${s.name}"`);
  const namesHere = new Map(groupsHere.map((g) => [g.id, g.name]));
  /** A scope here with its group by name; null for a group since removed (what names it is not compared). */
  const byNameHere = (scope: ScheduleScope): FileScope | null => {
    if (scope.kind !== 'group') return scope;
    const name = namesHere.get(scope.id);
    return name === undefined ? null : { kind: 'group', name };
  };

  // Schedules: one the same (scope, what, cadence, zone) as one here is unchanged; any other is
  // added. A file's schedule without a zone is in the display setting's.
  const settingZone = getSettings(db).timeZone;
  const keyOf = (s: UserDataSchedule) => `${s.what} of ${scopeKey(s.scope)}, ${describeCadence(s.cadence, s.zone ?? settingZone)}`;
  const schedulesHere = new Set(
    listSchedules(db).flatMap((s) => {
      const scope = byNameHere(s.scope);
      return scope ? [keyOf({ scope, what: s.what, cadence: s.cadence, zone: s.zone })] : [];
    }),
  );
  const seen = new Set<string>();
  for (const s of doc.data.schedules) {
    const scope = scopeOf(s.scope, 'A schedule');
    const schedule = { scope, what: s.what, cadence: s.cadence, zone: s.zone ?? settingZone };
    const key = keyOf(schedule);
    if (seen.has(key)) continue;
    seen.add(key);
    const shown = `${s.what} of ${scopeShown(scope)}, ${describeCadence(s.cadence, schedule.zone)}`;
    if (schedulesHere.has(key)) item('schedule', shown, 'unchanged');
    else {
      item('schedule', shown, 'added');
      writes.addSchedules.push(schedule);
    }
  }

  // Alert rules, as schedules: one the same (scope, condition) as one here is unchanged; any other is added.
  const ruleKey = (r: UserDataAlertRule) => `${conditionKey(r.condition)} of ${scopeKey(r.scope)}`;
  const rulesHere = new Set(
    listAlertRules(db).flatMap((r) => {
      const scope = byNameHere(r.scope);
      return scope ? [ruleKey({ scope, condition: r.condition })] : [];
    }),
  );
  const seenRules = new Set<string>();
  for (const r of doc.data.alertRules) {
    const rule = { scope: scopeOf(r.scope, 'An alert rule'), condition: r.condition };
    const key = ruleKey(rule);
    if (seenRules.has(key)) continue;
    seenRules.add(key);
    const shown = `${describeCondition(r.condition)}, ${scopeShown(rule.scope)}`;
    if (rulesHere.has(key)) item('alert', shown, 'unchanged');
    else {
      item('alert', shown, 'added');
      writes.addAlertRules.push(rule);
    }
  }

  // Closed periods: one the same as here (scope, period, when closed, hash) is unchanged; any
  // other is added as it was (its figures, hash and reopen). One in force that meets another
  // close in force here of the same scope and period is a conflict; replace reopens the one here
  // (the reason saying so, in the audit trail) for the file's.
  const closesHere = listCloses(db).filter((h) => h.closedAt !== null);
  const closeScope = (c: UserDataClosedPeriod): { kind: 'all' | 'wallet' | 'group'; wallet: string | null; groupName: string | null } => {
    if (c.scope.kind === 'all') return { kind: 'all', wallet: null, groupName: null };
    // A close is history: its wallet may no longer be watched anywhere (it is kept as written then).
    if (c.scope.kind === 'wallet')
      return {
        kind: 'wallet',
        wallet: fileWallets.get(addressKey(c.scope.address)) ?? getWallet(db, c.scope.address)?.address ?? c.scope.address,
        groupName: null,
      };
    return { kind: 'group', wallet: null, groupName: c.scope.name.trim() };
  };
  const sameScope = (a: ReturnType<typeof closeScope>, here: (typeof closesHere)[number]) =>
    a.kind === here.scope.kind &&
    (a.kind !== 'wallet' || a.wallet === here.scope.wallet) &&
    (a.kind !== 'group' || (namesHere.get(here.scope.group ?? -1) ?? here.scope.name).toLowerCase() === a.groupName!.toLowerCase());
  const seenCloses = new Set<string>();
  for (const c of doc.data.closedPeriods) {
    const scope = closeScope(c);
    const shown = `${scope.kind === 'all' ? 'all wallets' : scope.kind === 'wallet' ? scope.wallet : `group "${scope.groupName}"`} ${c.from} to ${c.to}, closed ${c.closedAt}`;
    if (seenCloses.has(shown)) continue;
    seenCloses.add(shown);
    const same = closesHere.find((h) => sameScope(scope, h) && h.from === c.from && h.to === c.to && h.closedAt === c.closedAt && h.hash === c.hash);
    if (same) {
      item('close', shown, 'unchanged');
      continue;
    }
    const write = { ...c, scopeKind: scope.kind, wallet: scope.wallet, groupName: scope.groupName, replaces: null as number | null };
    const inForce = c.reopenedAt ? undefined : closesHere.find((h) => !h.reopenedAt && sameScope(scope, h) && h.from === c.from && h.to === c.to);
    // A close prepared here, waiting for approval, holds the period too: the file's close in force is refused until it is rejected.
    const prepared = c.reopenedAt ? undefined : listCloses(db, { from: c.from, to: c.to }).find((h) => h.state === 'prepared' && sameScope(scope, h));
    if (prepared) {
      item('close', shown, 'conflict', `prepared here (close ${prepared.id}, ${prepared.preparedAt ?? ''}), waiting for approval: reject it first`);
      continue;
    }
    if (inForce) {
      item(
        'close',
        shown,
        'conflict',
        `closed here too (close ${inForce.id}, ${inForce.closedAt}, hash ${inForce.hash.slice(0, 12)}…); in the file hash ${c.hash.slice(0, 12)}…`,
      );
      if (o.replace) writes.addCloses.push({ ...write, replaces: inForce.id });
      continue;
    }
    item('close', shown, 'added', c.reopenedAt ? `reopened ${c.reopenedAt}: ${c.reopenReason ?? ''}` : `hash ${c.hash.slice(0, 12)}…`);
    writes.addCloses.push(write);
  }

  // A note of a wallet not watched here is kept too (its transactions may be cached, or come back).
  planAnnotations(db, doc, o, item, writes);

  // Settings: each one the file holds; another value is a change, never a conflict.
  const settingsHere = getSettings(db);
  const fileSettings = doc.data.settings as Partial<Settings>;
  for (const key of Object.keys(fileSettings) as Array<keyof Settings>) {
    const value = fileSettings[key];
    if (show(value) === show(settingsHere[key])) item('setting', key, 'unchanged');
    else {
      item('setting', key, 'changed', `${show(settingsHere[key])} → ${show(value)}`);
      (writes.settings as Record<string, unknown>)[key] = value;
    }
  }

  // The address book, by address: a new entry is added, another name for one here is a
  // conflict (replace takes the file's), other tags, flag, chains or note a change.
  const bookHere = new Map(listCounterparties(db).map((c) => [c.address, c]));
  const fileBook = new Set<string>();
  for (const [i, c] of doc.data.counterparties.entries()) {
    let entry;
    try {
      entry = cleanEntry(c);
    } catch (err) {
      throw new ValidationError('file', `Address-book entry ${i + 1} of the file (${c.address.slice(0, 60)}): ${(err as Error).message} Nothing was imported.`);
    }
    if (fileBook.has(entry.address)) throw new ValidationError('file', `The file lists the address-book entry ${entry.address} twice. Nothing was imported.`);
    fileBook.add(entry.address);
    const here = bookHere.get(entry.address);
    if (!here) {
      item('counterparty', entry.address, 'added', `"${entry.name}"`);
      writes.saveCounterparties.push(entry);
    } else if (here.name !== entry.name) {
      item('counterparty', entry.address, 'conflict', `named "${here.name}" here; "${entry.name}" in the file`);
      if (o.replace) writes.saveCounterparties.push(entry);
    } else if (sameEntry(here, entry)) item('counterparty', entry.address, 'unchanged');
    else {
      item('counterparty', entry.address, 'changed', `"${entry.name}": tags, flag, chains or note`);
      writes.saveCounterparties.push(entry);
    }
  }

  // Spam verdicts, by what they are about (kind, chain, target, wallet): a new one is added, another
  // note a change, the other verdict a conflict (replace takes the file's). One for a wallet not
  // watched here is kept, as a note is: it holds once the wallet is watched.
  const fileVerdicts = new Set<string>();
  for (const [i, v] of doc.data.spamVerdicts.entries()) {
    let k: SpamMarkKey;
    let note: string;
    try {
      k = cleanMarkKey(v);
      note = cleanMarkNote(v.note);
    } catch (err) {
      throw new ValidationError('file', `Spam verdict ${i + 1} of the file (${v.target.slice(0, 60)}): ${(err as Error).message} Nothing was imported.`);
    }
    const shown = markItem(k);
    if (fileVerdicts.has(shown)) throw new ValidationError('file', `The file lists the spam verdict on ${shown} twice. Nothing was imported.`);
    fileVerdicts.add(shown);
    const here = getSpamMark(db, k);
    const said = (verdict: string, n: string) => `${verdict}${n ? ` ("${n.slice(0, 60)}")` : ''}`;
    if (!here) {
      item('spam', shown, 'added', said(v.verdict, note));
      writes.saveSpamVerdicts.push({ key: k, verdict: v.verdict, note });
    } else if (here.verdict !== v.verdict) {
      item('spam', shown, 'conflict', `${said(here.verdict, here.note)} here; ${said(v.verdict, note)} in the file`);
      if (o.replace) writes.saveSpamVerdicts.push({ key: k, verdict: v.verdict, note });
    } else if (here.note === note) item('spam', shown, 'unchanged');
    else {
      item('spam', shown, 'changed', `note ${JSON.stringify(here.note)} → ${JSON.stringify(note)}`);
      writes.saveSpamVerdicts.push({ key: k, verdict: v.verdict, note });
    }
  }

  // Spam lists, by name, each checked as `folioscope spam lists import` checks a list file: a new
  // one is added with its time and hash (so it keeps its place among the lists, and a closed
  // period that hashed it finds it the same); the same list is unchanged, whenever imported;
  // another list of that name is a conflict (replace takes the file's).
  const listsHere = new Map(listStoredSpamLists(db).map((l) => [l.name, l]));
  const fileLists = new Set<string>();
  const holds = (l: StoredSpamList) => `${l.tokens} tokens, ${l.addresses} addresses, ${l.patterns} symbol patterns`;
  for (const [i, entry] of doc.data.spamLists.entries()) {
    const l = cleanCarriedList(entry, i + 1);
    if (fileLists.has(l.name)) throw new ValidationError('file', `The file lists the spam list "${l.name}" twice. Nothing was imported.`);
    fileLists.add(l.name);
    const here = listsHere.get(l.name);
    if (!here) {
      item('spam-list', l.name, 'added', holds(l));
      writes.saveSpamLists.push(l);
    } else if (here.list === l.list) item('spam-list', l.name, 'unchanged');
    else {
      item(
        'spam-list',
        l.name,
        'conflict',
        `another list here (imported ${here.importedAt}: ${holds(here)}); in the file imported ${l.importedAt}: ${holds(l)}`,
      );
      if (o.replace) writes.saveSpamLists.push(l);
    }
  }

  const counts: Record<ImportItemState, number> = { added: 0, changed: 0, unchanged: 0, conflict: 0 };
  for (const i of items) counts[i.state]++;
  return {
    preview: {
      exportedAt: doc.exportedAt,
      encrypted: o.encrypted,
      items,
      counts,
      replace: o.replace,
      applicable: counts.conflict === 0 || o.replace,
      applied: false,
    },
    writes,
  };
}

/**
 * Categories, rules and notes of a file (issue 28). A category is by name (any case): one not
 * here is added, another colour or kind is a change. A rule the same (category and conditions)
 * as one here is unchanged; any other is added after those here, in the file's order. A note
 * is by (wallet, chain, hash): one not here is added (kept orphaned when its transaction is not
 * cached), the same is unchanged, another text or category is a conflict. A rule or note naming
 * a category neither in the file nor here, or a note the app would refuse, refuses the file whole.
 */
function planAnnotations(
  db: ReadableDB,
  doc: UserData,
  o: { replace: boolean },
  item: (kind: ImportItem['kind'], key: string, state: ImportItemState, detail?: string) => void,
  writes: UserDataImport,
): void {
  const here = listCategories(db);
  const known = new Map(here.map((c) => [c.name.toLowerCase(), c.name]));
  const seen = new Set<string>();
  for (const c of doc.data.categories) {
    const name = c.name.trim();
    const problem = unsafeCharsProblem(name);
    if (problem) throw new ValidationError('file', `The category "${name.slice(0, 40)}" of the file ${problem}. Nothing was imported.`);
    if (seen.has(name.toLowerCase())) throw new ValidationError('file', `The file lists the category "${name}" twice. Nothing was imported.`);
    seen.add(name.toLowerCase());
    const existing = here.find((x) => x.name.toLowerCase() === name.toLowerCase());
    const colour = c.colour?.toLowerCase() ?? null;
    if (!existing) {
      item('category', name, 'added', c.kind);
      writes.saveCategories.push({ name, colour, kind: c.kind });
      known.set(name.toLowerCase(), name);
    } else if (existing.colour === colour && existing.kind === c.kind) item('category', existing.name, 'unchanged');
    else {
      item('category', existing.name, 'changed', `${existing.kind} ${existing.colour ?? 'no colour'} → ${c.kind} ${colour ?? 'no colour'}`);
      writes.saveCategories.push({ id: existing.id, name: existing.name, colour, kind: c.kind });
    }
  }
  const categoryOf = (name: string, what: string) => {
    const found = known.get(name.trim().toLowerCase());
    if (!found)
      throw new ValidationError('file', `${what} names the category "${name.slice(0, 64)}", which is neither in the file nor here. Nothing was imported.`);
    return found;
  };

  const ruleKey = (category: string, c: RuleConditions) =>
    `${category.toLowerCase()} ${JSON.stringify(Object.entries(c).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
  const rulesHere = new Set(listRules(db).map((r) => ruleKey(r.category, r.conditions)));
  for (const [i, r] of doc.data.rules.entries()) {
    const category = categoryOf(r.category, `Rule ${i + 1} of the file`);
    let conditions: RuleConditions;
    try {
      conditions = cleanConditions(r.conditions);
    } catch (err) {
      throw new ValidationError('file', `Rule ${i + 1} of the file: ${(err as Error).message} Nothing was imported.`);
    }
    const key = ruleKey(category, conditions);
    const shown = `${r.name.trim() || `${category} rule`}: ${describeConditions(conditions)} → ${category}`;
    if (rulesHere.has(key)) item('rule', shown, 'unchanged');
    else {
      rulesHere.add(key);
      item('rule', shown, 'added');
      writes.addRules.push({ name: r.name, category, conditions });
    }
  }

  const seenNotes = new Set<string>();
  for (const [i, n] of doc.data.notes.entries()) {
    const key = storedKey({ wallet: n.wallet, chain: n.chain, txnHash: n.txnHash });
    const id = `${key.wallet}|${key.chain}|${key.txnHash}`;
    if (seenNotes.has(id)) throw new ValidationError('file', `The file lists the note of ${key.txnHash.slice(0, 80)} twice. Nothing was imported.`);
    seenNotes.add(id);
    let note: string | null;
    try {
      note = n.note === null ? null : cleanNote(n.note);
    } catch (err) {
      throw new ValidationError('file', `Note ${i + 1} of the file: ${(err as Error).message} Nothing was imported.`);
    }
    const category = n.category === null ? null : categoryOf(n.category, `The note of ${key.txnHash.slice(0, 80)}`);
    if (note === null && category === null) continue;
    const current = getAnnotation(db, key);
    const shown = `${key.txnHash} (${key.chain})`;
    const detail = [category ? `category ${category}` : '', note ? `note "${note.slice(0, 60)}${note.length > 60 ? '…' : ''}"` : ''].filter(Boolean).join(', ');
    if (!current || (current.note === null && current.manualCategory === null)) {
      item('note', shown, 'added', detail);
      writes.setNotes.push({ key, note, category });
    } else if (current.note === note && (current.manualCategory ?? '').toLowerCase() === (category ?? '').toLowerCase()) item('note', shown, 'unchanged');
    else {
      item(
        'note',
        shown,
        'conflict',
        `here ${current.manualCategory ?? 'no category'}, ${current.note === null ? 'no note' : `"${current.note.slice(0, 40)}"`}; in the file ${detail}`,
      );
      if (o.replace) writes.setNotes.push({ key, note, category });
    }
  }
}
