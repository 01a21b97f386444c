import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

const COUNTERPARTY = '0x00000000000000000000000000000000000000c1';

/**
 * Edits that do not overwrite each other (issue 37 item 5, store/versions.ts): alice loads the
 * books, bob changes every record she loaded, and alice's edits made on what she loaded are each
 * refused, naming bob and when, with nothing changed and nothing recorded; made again on what is
 * there now they pass, and the version moves. Two people are two cores opened one after the other
 * on the same data folder, as two sessions of the app are: the only difference is who edits.
 */
describe('an edit on a stale version', () => {
  it('is refused with who changed the record and when, for wallets, groups, the address book, categories, rules and notes', async () => {
    const dataDir = tempDir();
    const open = (person: string) => createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0, person });
    const loaded = async (core: Core, categoryId?: number) => {
      const [wallet] = (await core.request('wallets.list', undefined)).filter((w) => w.address === WALLET);
      const [group] = await core.request('groups.list', undefined);
      const [entry] = await core.request('counterparties.list', undefined);
      const category = (await core.request('categories.list', undefined)).find((c) =>
        categoryId === undefined ? c.name === 'Contractors' : c.id === categoryId,
      );
      const [rule] = await core.request('rules.list', undefined);
      return { wallet: wallet!, group: group!, entry: entry!, category: category!, rule: rule! };
    };

    // Alice sets the books up and loads them, as her screens do.
    const alice = await open('alice@laptop');
    let seen: Awaited<ReturnType<typeof loaded>>;
    let txn: { wallet: string; chain: string; txnHash: string };
    let aliceNote: number;
    try {
      await alice.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });
      await alice.request('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Cold' });
      await alice.request('groups.save', { name: 'Fund I', wallets: [WALLET] });
      await alice.request('counterparties.save', { address: COUNTERPARTY, name: 'Payroll provider' });
      await alice.request('categories.save', { name: 'Contractors' });
      await alice.request('rules.save', { name: 'Salaries', category: 'Contractors', conditions: { counterparties: [COUNTERPARTY] } });
      await waitForJobs(alice, [await alice.call('sync.transactions', { wallet: WALLET })]);
      const [row] = (await alice.request('timeline.page', { wallet: WALLET, limit: 1 })).rows;
      txn = { wallet: row!.wallet, chain: row!.chain, txnHash: row!.txnHash };
      aliceNote = (await alice.request('notes.set', { ...txn, note: 'March salaries' }))!.version!;
      seen = await loaded(alice);
      // Every record carries a version, each one's newest audit entry: all set by now.
      for (const v of [seen.wallet, seen.group, seen.entry, seen.category, seen.rule].map((r) => r.version)) expect(v).toBeGreaterThan(0);
      expect(aliceNote).toBeGreaterThan(0);
      expect((await alice.request('notes.get', txn))!.version).toBe(aliceNote);
    } finally {
      await alice.close();
    }

    // Bob changes every one of them meanwhile.
    const bob = await open('bob@desktop');
    try {
      await bob.request('wallets.update', { address: WALLET, label: 'Operations' });
      await bob.request('groups.save', { id: seen.group.id, name: 'Fund One', wallets: [WALLET, WALLET_2] });
      await bob.request('counterparties.save', { address: COUNTERPARTY, name: 'Deel' });
      await bob.request('categories.save', { id: seen.category.id, name: 'Salaries & wages' });
      await bob.request('rules.save', {
        id: seen.rule.id,
        name: 'Salaries (Deel)',
        category: 'Salaries & wages',
        conditions: { counterparties: [COUNTERPARTY] },
      });
      await bob.request('notes.set', { ...txn, note: 'March salaries, paid late' });
    } finally {
      await bob.close();
    }

    const core = await open('alice@laptop');
    try {
      const before = await loaded(core, seen.category.id);
      const trail = (await core.request('audit.list', {})).total;
      const staleEdits: [string, unknown][] = [
        ['wallets.update', { address: WALLET, label: 'Ops wallet', expectedVersion: seen.wallet.version }],
        ['wallets.remove', { address: WALLET, expectedVersion: seen.wallet.version }],
        ['groups.save', { id: seen.group.id, name: 'Fund I', wallets: [WALLET], expectedVersion: seen.group.version }],
        ['groups.remove', { id: seen.group.id, expectedVersion: seen.group.version }],
        ['counterparties.save', { address: COUNTERPARTY, name: 'Payroll Inc', expectedVersion: seen.entry.version }],
        ['counterparties.remove', { address: COUNTERPARTY, expectedVersion: seen.entry.version }],
        ['categories.save', { id: seen.category.id, name: 'Contractors', colour: '#123456', expectedVersion: seen.category.version }],
        [
          'rules.save',
          { id: seen.rule.id, name: 'Salaries', category: 'Salaries & wages', conditions: { direction: 'out' }, expectedVersion: seen.rule.version },
        ],
        ['rules.remove', { id: seen.rule.id, expectedVersion: seen.rule.version }],
        ['notes.set', { ...txn, note: 'March salaries (checked)', expectedVersion: aliceNote }],
        // A note alice saw as absent (0) that bob has written since.
        ['notes.set', { ...txn, note: 'New note', expectedVersion: 0 }],
      ];
      for (const [op, input] of staleEdits) {
        const answer = await core.dispatch(op, input);
        expect(answer.ok, op).toBe(false);
        if (answer.ok) continue;
        expect(answer.error.kind, op).toBe('conflict');
        expect(answer.error.said?.code, op).toBe('edit.stale');
        expect(answer.error.message, op).toMatch(/was changed by bob@desktop at \d{4}-\d\d-\d\d \d\d:\d\d UTC since you opened it/);
      }
      // The names are bob's, as he left them (the category by its new name).
      const messages = await Promise.all(
        staleEdits.slice(0, 10).map(async ([op, input]) => ((await core.dispatch(op, input)) as { error: { message: string } }).error.message),
      );
      expect(messages[0]).toMatch(/^The wallet "Operations" was changed by bob@desktop/);
      expect(messages[2]).toMatch(/^The group "Fund One"/);
      expect(messages[4]).toMatch(/^The address book entry "Deel"/);
      expect(messages[6]).toMatch(/^The category "Salaries & wages"/);
      expect(messages[7]).toMatch(/^The rule "Salaries \(Deel\)"/);

      // Nothing changed, and nothing was recorded.
      expect(await loaded(core, seen.category.id)).toEqual(before);
      expect((await core.request('notes.get', txn))!.note).toBe('March salaries, paid late');
      expect((await core.request('audit.list', {})).total).toBe(trail);

      // On what is there now, each edit passes and moves the version on.
      const now = await loaded(core, seen.category.id);
      const w = await core.request('wallets.update', { address: WALLET, label: 'Ops wallet', expectedVersion: now.wallet.version });
      expect(w.version).toBeGreaterThan(now.wallet.version!);
      const g = await core.request('groups.save', { id: now.group.id, name: 'Fund I', wallets: [WALLET], expectedVersion: now.group.version });
      expect(g.version).toBeGreaterThan(now.group.version!);
      const e = await core.request('counterparties.save', { address: COUNTERPARTY, name: 'Deel Inc', expectedVersion: now.entry.version });
      expect(e.version).toBeGreaterThan(now.entry.version!);
      const c = await core.request('categories.save', { id: now.category.id, name: 'Contractors', expectedVersion: now.category.version });
      expect(c.version).toBeGreaterThan(now.category.version!);
      const r = await core.request('rules.save', {
        id: now.rule.id,
        name: 'Salaries',
        category: 'Contractors',
        conditions: { counterparties: [COUNTERPARTY] },
        expectedVersion: now.rule.version,
      });
      expect(r.rule.version).toBeGreaterThan(now.rule.version!);
      const noteNow = (await core.request('notes.get', txn))!.version!;
      const n = await core.request('notes.set', { ...txn, note: 'March salaries (checked)', expectedVersion: noteNow });
      expect(n!.version).toBeGreaterThan(noteNow);
      // The version alice had a moment ago is stale now too: her own edits move it as anyone's do.
      expect(await core.dispatch('wallets.update', { address: WALLET, label: 'x', expectedVersion: now.wallet.version })).toMatchObject({
        ok: false,
        error: { kind: 'conflict', message: expect.stringMatching(/changed by alice@laptop/) },
      });
      // Without a version (the CLI, a script) nothing is checked: the edit is made on what is there.
      expect(await core.request('wallets.update', { address: WALLET, label: 'Ops' })).toMatchObject({ label: 'Ops' });
      // A removal on the current version passes.
      const latest = await loaded(core, seen.category.id);
      expect(await core.request('counterparties.remove', { address: COUNTERPARTY, expectedVersion: latest.entry.version })).toBe(true);
      // An entry alice saw as absent (0) may be written while it still is.
      expect(await core.request('counterparties.save', { address: COUNTERPARTY, name: 'Deel again', expectedVersion: 0 })).toMatchObject({
        name: 'Deel again',
      });
    } finally {
      await core.close();
    }
  }, 120_000);

  it('is refused for alert rules, schedules, spam verdicts and lists, and each setting someone changed since', async () => {
    const dataDir = tempDir();
    const open = (person: string) => createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0, person });
    const TOKEN = '0x00000000000000000000000000000000000000d1';
    const LIST = JSON.stringify({ format: 'folioscope-spam-list', version: 1, name: 'Ours', tokens: [], addresses: [] });
    const read = async (core: Core) => {
      const [rule] = await core.request('alerts.rules', undefined);
      const [schedule] = await core.request('schedules.list', undefined);
      const [verdict] = await core.request('spam.verdicts', undefined);
      const list = (await core.request('spam.lists', undefined)).find((l) => l.name === 'Ours');
      const settings = await core.request('settings.get', {});
      return { rule: rule!, schedule: schedule!, verdict: verdict!, list: list!, settings };
    };

    const alice = await open('alice@laptop');
    let seen: Awaited<ReturnType<typeof read>>;
    try {
      await alice.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });
      await alice.request('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 24 } });
      await alice.request('schedules.save', { scope: { kind: 'all' }, what: 'positions', cadence: { every: 'day', hour: 6, minute: 0 } });
      await alice.request('spam.mark', { kind: 'token', chain: 'eth', target: TOKEN, verdict: 'spam' });
      await alice.request('spam.importList', { text: LIST });
      await alice.request('settings.update', { theme: 'dark', backupKeep: 5 });
      seen = await read(alice);
      for (const r of [seen.rule, seen.schedule, seen.verdict, seen.list, seen.settings]) expect(r.version).toBeGreaterThan(0);
    } finally {
      await alice.close();
    }

    const bob = await open('bob@desktop');
    try {
      await bob.request('alerts.saveRule', { id: seen.rule.id, scope: { kind: 'all' }, condition: { kind: 'stale', hours: 48 } });
      await bob.request('schedules.save', { id: seen.schedule.id, scope: { kind: 'all' }, what: 'both', cadence: { every: 'day', hour: 7, minute: 0 } });
      await bob.request('spam.mark', { kind: 'token', chain: 'eth', target: TOKEN, verdict: 'not-spam' });
      await bob.request('spam.importList', { text: LIST.replace('"tokens":[]', '"tokens":[]') + '\n' });
      await bob.request('settings.update', { theme: 'light' });
    } finally {
      await bob.close();
    }

    const core = await open('alice@laptop');
    try {
      const before = await read(core);
      const trail = (await core.request('audit.list', {})).total;
      const staleEdits: [string, unknown, RegExp][] = [
        [
          'alerts.saveRule',
          { id: seen.rule.id, scope: { kind: 'all' }, condition: { kind: 'stale', hours: 12 }, expectedVersion: seen.rule.version },
          /^The alert rule "#\d+"/,
        ],
        ['alerts.removeRule', { id: seen.rule.id, expectedVersion: seen.rule.version }, /^The alert rule/],
        [
          'schedules.save',
          { id: seen.schedule.id, scope: { kind: 'all' }, what: 'positions', cadence: { every: 'hour', minute: 5 }, expectedVersion: seen.schedule.version },
          /^The schedule "#\d+"/,
        ],
        ['schedules.remove', { id: seen.schedule.id, expectedVersion: seen.schedule.version }, /^The schedule/],
        [
          'spam.mark',
          { kind: 'token', chain: 'eth', target: TOKEN, verdict: 'spam', expectedVersion: seen.verdict.version },
          /^The spam verdict on "token eth 0x0+d1/,
        ],
        ['spam.clear', { kind: 'token', chain: 'eth', target: TOKEN, expectedVersion: seen.verdict.version }, /^The spam verdict on/],
        // A verdict alice saw as absent (0) that bob has set since: hers would overwrite his.
        ['spam.mark', { kind: 'token', chain: 'eth', target: TOKEN, verdict: 'spam', expectedVersion: 0 }, /^The spam verdict on/],
        ['spam.importList', { text: LIST, expectedVersion: seen.list.version }, /^The spam list "Ours"/],
        ['spam.removeList', { name: 'Ours', expectedVersion: seen.list.version }, /^The spam list "Ours"/],
        ['settings.update', { theme: 'system', expectedVersion: seen.settings.version }, /^The setting "theme"/],
      ];
      for (const [op, input, name] of staleEdits) {
        const answer = await core.dispatch(op, input);
        expect(answer.ok, op).toBe(false);
        if (answer.ok) continue;
        expect(answer.error.kind, op).toBe('conflict');
        expect(answer.error.said?.code, op).toBe('edit.stale');
        expect(answer.error.message, op).toMatch(name);
        expect(answer.error.message, op).toMatch(/was changed by bob@desktop at \d{4}-\d\d-\d\d \d\d:\d\d UTC since you opened it/);
      }
      // Nothing changed, and nothing was recorded.
      expect(await read(core)).toEqual(before);
      expect((await core.request('audit.list', {})).total).toBe(trail);

      // A setting bob did not change may be changed on the version alice loaded: two people
      // changing two settings do not collide.
      const kept = await core.request('settings.update', { backupKeep: 9, expectedVersion: seen.settings.version });
      expect(kept).toMatchObject({ backupKeep: 9, theme: 'light' });
      expect(kept.version).toBeGreaterThan(before.settings.version!);

      // On what is there now, each passes and moves the version on.
      const now = await read(core);
      const rule = await core.request('alerts.saveRule', {
        id: now.rule.id,
        scope: { kind: 'all' },
        condition: { kind: 'stale', hours: 12 },
        expectedVersion: now.rule.version,
      });
      expect(rule.version).toBeGreaterThan(now.rule.version!);
      const schedule = await core.request('schedules.save', {
        id: now.schedule.id,
        scope: { kind: 'all' },
        what: 'positions',
        cadence: { every: 'hour', minute: 5 },
        expectedVersion: now.schedule.version,
      });
      expect(schedule.version).toBeGreaterThan(now.schedule.version!);
      const mark = await core.request('spam.mark', { kind: 'token', chain: 'eth', target: TOKEN, verdict: 'spam', expectedVersion: now.verdict.version });
      expect(mark.version).toBeGreaterThan(now.verdict.version!);
      expect(await core.request('settings.update', { theme: 'system', expectedVersion: now.settings.version })).toMatchObject({ theme: 'system' });
      expect(await core.request('spam.removeList', { name: 'Ours', expectedVersion: now.list.version })).toBe(true);
      expect(await core.request('alerts.removeRule', { id: now.rule.id, expectedVersion: rule.version })).toBe(true);
      expect(await core.request('schedules.remove', { id: now.schedule.id, expectedVersion: schedule.version })).toBe(true);
      expect(await core.request('spam.clear', { kind: 'token', chain: 'eth', target: TOKEN, expectedVersion: mark.version })).toBe(true);
    } finally {
      await core.close();
    }
  }, 120_000);
});
