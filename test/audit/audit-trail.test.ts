import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { recordEdit, withAuditOrigin, withAuditVia } from '../../src/main/core/store/audit.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { editors, listEdits } from '../../src/main/core/audit/index.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { CLI } from '../support/cli-process.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * The audit trail (issue 28, item 4): every edit a user makes to their own data is recorded
 * with the item before and after, when, and by which operation; an edit that fails records
 * nothing; the trail cannot be rewritten; the CLI lists it and the CSV holds it, read back
 * from the file written by the program as a user runs it.
 */
const cli = (dataDir: string, args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the audit trail', () => {
  it('records every edit of wallets, groups, settings, schedules and alert rules with before and after, and nothing for a refused one', async () => {
    const dataDir = tempDir();
    const core = await createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter(), scheduleEveryMs: 0, person: 'alice@treasury-laptop' });
    try {
      await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });
      await core.request('wallets.add', { address: WALLET_2, chains: ['eth'] });
      await core.request('wallets.update', { address: WALLET, label: 'Treasury', tags: ['core'] });
      // Refused edits change nothing and record nothing.
      expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'] })).toMatchObject({ ok: false });
      expect(await core.dispatch('wallets.update', { address: WALLET, label: 'x'.repeat(81) })).toMatchObject({ ok: false });
      // The same label again is not an edit.
      await core.request('wallets.update', { address: WALLET, label: 'Treasury' });
      const group = await core.request('groups.save', { name: 'Fund I', wallets: [WALLET] });
      await core.request('groups.save', { id: group.id, name: 'Fund I', wallets: [WALLET, WALLET_2] });
      await core.request('settings.update', { timeZone: 'local', backupKeep: 7 });
      const schedule = await core.request('schedules.save', { scope: { kind: 'all' }, what: 'both', cadence: { every: 'day', hour: 6, minute: 0 } });
      await core.request('schedules.remove', { id: schedule.id });
      const rule = await core.request('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 24 } });
      await core.request('alerts.saveRule', { id: rule.id, scope: { kind: 'all' }, condition: { kind: 'stale', hours: 48 } });
      await core.request('alerts.removeRule', { id: rule.id });
      await core.request('groups.remove', { id: group.id });
      await core.request('wallets.remove', { address: WALLET_2 });

      const { entries, total } = await core.request('audit.list', {});
      const lines = entries.map((e) => `${e.origin} ${e.entity} ${e.action}`).reverse();
      expect(lines).toEqual([
        'wallets.add wallet create',
        'wallets.add wallet create',
        'wallets.update wallet update',
        'groups.save group create',
        'groups.save group update',
        // backupKeep was 7 already: only the time zone changed.
        'settings.update setting update',
        'schedules.save schedule create',
        'schedules.remove schedule delete',
        'alerts.saveRule alert-rule create',
        'alerts.saveRule alert-rule update',
        'alerts.removeRule alert-rule delete',
        'groups.remove group delete',
        'wallets.remove wallet delete',
      ]);
      expect(total).toBe(13);
      // Every edit names who made it and through which shell (issue 37 item 1).
      expect(new Set(entries.map((e) => `${e.person} ${e.via}`))).toEqual(new Set(['alice@treasury-laptop web']));
      expect((await core.request('audit.list', {})).people).toEqual([{ person: 'alice@treasury-laptop', edits: 13 }]);
      expect((await core.request('audit.list', { person: 'alice@treasury-laptop' })).total).toBe(13);
      expect((await core.request('audit.list', { person: 'bob@treasury-laptop' })).total).toBe(0);
      const relabel = entries.find((e) => e.origin === 'wallets.update')!;
      expect(relabel).toMatchObject({ key: WALLET.toLowerCase(), before: { label: 'Ops', tags: [] }, after: { label: 'Treasury', tags: ['core'] } });
      expect(entries.find((e) => e.entity === 'setting')).toMatchObject({ key: 'timeZone', before: { timeZone: 'utc' }, after: { timeZone: 'local' } });
      expect(entries.find((e) => e.entity === 'alert-rule' && e.action === 'update')).toMatchObject({
        before: { condition: { kind: 'stale', hours: 24 } },
        after: { condition: { kind: 'stale', hours: 48 } },
      });
      const members = entries.find((e) => e.entity === 'group' && e.action === 'update')!;
      expect(members.before).toMatchObject({ wallets: [WALLET.toLowerCase()] });
      expect((members.after as { wallets: string[] }).wallets).toHaveLength(2);
      // Filtered by item; paged by id.
      expect((await core.request('audit.list', { entity: 'wallet', key: WALLET.toLowerCase() })).entries).toHaveLength(2);
      const page = await core.request('audit.list', { limit: 5 });
      const next = await core.request('audit.list', { limit: 5, beforeId: page.entries.at(-1)!.id });
      expect(next.entries[0]!.id).toBeLessThan(page.entries.at(-1)!.id);

      // Append-only: the cache itself refuses to rewrite or drop an edit.
      const db = await cacheOf(core);
      expect(() => db.prepare("UPDATE audit_log SET after = '{}'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    } finally {
      await core.close();
    }
  });

  it('records an import item by item as userData.import, and lists and exports the trail from the CLI', async () => {
    const dataDir = tempDir();
    expect(cli(dataDir, ['wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Ops']).status).toBe(0);
    const file = join(dataDir, 'mine.json');
    expect(cli(dataDir, ['data', 'export', '--out', file]).status).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.data.wallets[0].label = 'Treasury';
    doc.data.wallets.push({ address: WALLET_2, label: 'Staking', tags: [], chains: ['eth'] });
    doc.data.groups.push({ name: 'Fund I', wallets: [WALLET, WALLET_2] });
    writeFileSync(file, JSON.stringify(doc));
    const imported = cli(dataDir, ['data', 'import', file]);
    expect(imported.status, imported.stderr).toBe(0);

    const listed = cli(dataDir, ['audit']);
    expect(listed.status, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    // As cron or a person at a terminal runs it: the system's account at this machine, from the command line.
    const me = `${userInfo().username}@${hostname()}`;
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      [me, 'cli', 'userData.import'],
      [me, 'cli', 'userData.import'],
      [me, 'cli', 'userData.import'],
      [me, 'cli', 'wallets.add'],
    ]);
    expect(rows.map((r) => r[4]).join('\n')).toContain(`wallet ${WALLET.toLowerCase()} "Treasury": label: "Ops" → "Treasury"`);
    const json = cli(dataDir, ['audit', '--entity', 'group', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ entity: string }>).map((e) => e.entity)).toEqual(['group']);
    expect(cli(dataDir, ['audit', '--limit', '0']).status).toBe(2);

    const out = join(dataDir, 'audit.csv');
    const exported = cli(dataDir, ['export', 'csv', '--report', 'audit', '--out', out]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('Wrote 4 rows');
    const records = parse(readFileSync(out), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records.map((r) => `${r['origin']} ${r['entity']} ${r['action']} ${r['person']} ${r['via']}`)).toEqual([
      `wallets.add wallet create ${me} cli`,
      `userData.import wallet create ${me} cli`,
      `userData.import wallet update ${me} cli`,
      `userData.import group create ${me} cli`,
    ]);
    const byPerson = cli(dataDir, ['audit', '--person', me, '--json']);
    expect((JSON.parse(byPerson.stdout) as unknown[]).length).toBe(4);
    expect(JSON.parse(cli(dataDir, ['audit', '--person', 'nobody@nowhere', '--json']).stdout)).toEqual([]);
    const update = records.find((r) => r['action'] === 'update')!;
    expect(JSON.parse(update['before']!)).toMatchObject({ label: 'Ops' });
    expect(JSON.parse(update['after']!)).toMatchObject({ label: 'Treasury' });
  }, 180_000);

  it('names nobody for an edit made before the trail named people, and a scheduled run as one', () => {
    const file = join(tempDir(), 'cache.sqlite');
    const old = openDatabase(file, { upToVersion: 25 });
    old
      .prepare(
        "INSERT INTO audit_log (at, entity, item, action, before, after, reason, origin) VALUES ('2026-01-02T03:04:05.000Z', 'wallet', 'x', 'create', NULL, '{}', NULL, 'wallets.add')",
      )
      .run();
    old.close();
    const db = openDatabase(file);
    try {
      const edit = (key: string) => recordEdit(db, { entity: 'wallet', key, action: 'create', before: null, after: {} });
      withAuditOrigin('schedules.runDue', () => withAuditVia('schedule', 'cron@host', () => edit('scheduled')), undefined, {
        person: 'alice@laptop',
        via: 'cli',
      });
      withAuditVia('schedule', 'alice@laptop', () => edit('timer'));
      edit('outside');
      const byKey = Object.fromEntries(listEdits(db).map((e) => [e.key, [e.person, e.via, e.origin]]));
      expect(byKey).toEqual({
        // Before migration 26: nobody is guessed.
        x: [null, null, 'wallets.add'],
        // Started by an operation (`schedule run` from cron): its person, a scheduled run.
        scheduled: ['alice@laptop', 'schedule', 'schedules.runDue'],
        // Started by the app's timer: the core's person, a scheduled run.
        timer: ['alice@laptop', 'schedule', 'core'],
        // Outside any operation (a migration, a test): nobody.
        outside: [null, null, 'core'],
      });
      expect(editors(db)).toEqual([{ person: 'alice@laptop', edits: 2 }]);
    } finally {
      db.close();
    }
  });
});
