import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { databaseFileFor } from '../../src/main/core/session/profile.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Findings: group names accepted control and bidi characters (labels and tags refuse them),
 * and reached the PDF's Title metadata and `group list --json` raw; `reconcile --json`
 * printed the service's symbols with raw C1 and bidi characters (U+009B is a terminal's
 * CSI); `group list` printed the tabs between its columns as <U+0009>.
 */
const RLO = '\u202e';
const CSI = '\u009b';
const NASTY = ['a\u202eb', 'x\u001b[2Jy', 'bell\u0007', 'iso\u2066late', `c1${CSI}31m`, 'line\u2028sep', 'new\nline', 'tab\there', 'zw\u200bsp', 'nul\u0000'];
// What may never reach a terminal raw (tab and LF are the output's own separators).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** The reference service behind a proxy that gives DAI a symbol with a CSI and an override, as a hostile service could. */
let sim: Simulator;
let proxy: Server;
let proxyUrl: string;
beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW });
  proxy = createServer((req, res) => {
    void fetch(sim.url + (req.url ?? '/')).then(async (answer) => {
      const body = (await answer.text()).replace(/"(token_symbol|symbol)":"DAI"/g, `"$1":"D\\u009b2J${RLO}AI"`);
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sim.close();
});

describe('group names refuse control and bidi characters, as labels and tags do', () => {
  it('groups.save refuses each one with the labels’ message, changing nothing', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      for (const bad of NASTY) {
        const r = await core.dispatch('groups.save', { name: bad, wallets: [WALLET] });
        expect(r, JSON.stringify(bad)).toMatchObject({ ok: false, error: { kind: 'validation', field: 'name' } });
        expect((r as { error: { message: string } }).error.message).toMatch(
          /^name: The group name contains an invisible control or text-direction character \(U\+[0-9A-F]{4}\); remove it\.$/,
        );
      }
      expect(await core.call('groups.list', undefined)).toEqual([]);
      const g = await core.call('groups.save', { name: 'Fund I', wallets: [WALLET] });
      // Renaming an existing group is refused the same way; the group keeps its name.
      expect(await core.dispatch('groups.save', { id: g.id, name: `Fund${RLO}I`, wallets: [WALLET] })).toMatchObject({ ok: false, error: { field: 'name' } });
      // Its version too: the refused rename recorded nothing.
      expect(await core.call('groups.list', undefined)).toEqual([{ id: g.id, name: 'Fund I', wallets: [WALLET], version: g.version }]);
    } finally {
      await core.close();
    }
  });
});

describe('every --json of the CLI, the group table and the PDF never carry them raw', { timeout: 180_000 }, () => {
  it('group save refuses them; an old row is escaped in JSON, shown as <U+…> in the table and the PDF title; service symbols too', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', proxyUrl];
    const env = { FOLIOSCOPE_ACCESS_KEY: KEY };
    expect((await cliAsync([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury'])).status).toBe(0);
    const refused = await cliAsync([...g, 'group', 'save', `Fund${RLO}I`, '--wallets', WALLET]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The group name contains an invisible control or text-direction character (U+202E); remove it.');
    expect((await cliAsync([...g, 'group', 'list', '--json'])).stdout.trim()).toBe('[]');
    expect((await cliAsync([...g, 'group', 'save', 'Fund I', '--wallets', WALLET])).status).toBe(0);

    // A name an older version accepted: a tab, an override, a CSI, an escape, a line separator.
    const old = `Fu\tnd${RLO}I${CSI}2J\u001b]0;x\u0007\u2028`;
    const db = openDatabase(databaseFileFor(dir, proxyUrl));
    db.prepare('UPDATE wallet_groups SET name = ?').run(old);
    db.close();

    const json = await cliAsync([...g, 'group', 'list', '--json']);
    expect(json.status, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(RAW_UNSAFE);
    expect(json.stdout).toContain('\\u202e');
    // Escaped, not altered: a script reads the name as stored.
    expect(JSON.parse(json.stdout)).toEqual([{ id: 1, name: old, wallets: [WALLET], version: expect.any(Number) }]);

    // The table: tab-separated columns under a header, a tab inside the name shown as <U+0009>.
    const table = await cliAsync([...g, 'group', 'list']);
    expect(table.status, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split('\t'))).toEqual([
      ['id', 'name', 'wallets'],
      ['1', 'Fu<U+0009>nd<U+202E>I<U+009B>2J<U+001B>]0;x<U+0007><U+2028>', WALLET],
    ]);

    const sync = await cliAsync([...g, 'sync', '--from', '2025-05-31', '--to', '2025-06-30', '--every', 'month'], { env });
    expect(sync.status, sync.stdout + sync.stderr).toBe(0);

    const pdfPath = join(dir, 'group.pdf');
    const pdf = await cliAsync([...g, 'export', 'pdf', '--group', '1', '--date', '2025-06-30', '--out', pdfPath]);
    expect(pdf.status, pdf.stderr).toBe(0);
    expect(pdf.stdout + pdf.stderr).not.toMatch(RAW_UNSAFE);
    const title = execFileSync('pdfinfo', ['-enc', 'UTF-8', pdfPath], { encoding: 'utf8' })
      .split('\n')
      .find((l) => l.startsWith('Title:'))!;
    expect(title).toContain('Fu<U+0009>nd<U+202E>I<U+009B>2J<U+001B>]0;x<U+0007><U+2028>');
    expect(title).not.toMatch(RAW_UNSAFE);
    expect(title).not.toContain('\t');

    // The service's symbol: escaped by reconcile --json (still the exact value when parsed), shown as <U+…> by the table.
    const rec = await cliAsync([...g, 'reconcile', '--group', '1', '--from', '2025-05-31', '--to', '2025-06-30', '--json']);
    expect(rec.status, rec.stderr).toBe(0);
    expect(rec.stdout).not.toMatch(RAW_UNSAFE);
    const rows = JSON.parse(rec.stdout) as Array<{ token_symbol: string | null }>;
    expect(rows.map((r) => r.token_symbol)).toContain(`D${CSI}2J${RLO}AI`);
    const recTable = await cliAsync([...g, 'reconcile', '--group', '1', '--from', '2025-05-31', '--to', '2025-06-30']);
    expect(recTable.stdout).toContain('D<U+009B>2J<U+202E>AI');
    expect(recTable.stdout).not.toMatch(RAW_UNSAFE);

    // The other --json outputs.
    for (const args of [
      ['wallet', 'list', '--json'],
      ['doctor', '--cached', '--json'],
    ]) {
      const r = await cliAsync([...g, ...args], { env });
      expect(r.stdout, args.join(' ')).not.toMatch(RAW_UNSAFE);
      expect(() => JSON.parse(r.stdout), args.join(' ')).not.toThrow();
    }
  });
});
