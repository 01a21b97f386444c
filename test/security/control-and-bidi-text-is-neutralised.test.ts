import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { databaseFileFor } from '../../src/main/core/session/profile.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync, type HostileService, startHostileService } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Findings: control characters and bidi overrides were accepted in labels; terminal escapes
 * in a label reached the terminal through `wallet list` and sync output (issue 14); and
 * bidi/control characters from the service or the user could reorder or hide neighbouring
 * text in the PDF, CSV and terminal (issue 12, item 6).
 */
const RLO = '\u202e';
const ESC = '\u001b';
const NASTY = ['a\u202eb', 'x\u001b[2Jy', 'bell\u0007', 'iso\u2066late', 'c1\u009bcsi', 'line\u2028sep', 'new\nline', 'zw\u200bsp'];

let sim: Simulator;
let svc: HostileService;
beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW });
  svc = await startHostileService();
});
afterAll(async () => {
  await svc.close();
  await sim.close();
});

describe('user-entered labels and tags refuse control and bidi characters', () => {
  it('wallets.add and wallets.update refuse them, changing nothing', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      for (const bad of NASTY) {
        expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], label: bad }), JSON.stringify(bad)).toMatchObject({
          ok: false,
          error: { kind: 'validation', field: 'label' },
        });
        expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], tags: ['ok', bad] }), JSON.stringify(bad)).toMatchObject({
          ok: false,
          error: { kind: 'validation', field: 'tags' },
        });
      }
      expect(await core.call('wallets.list', undefined)).toEqual([]);
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Cold 🧊 store', tags: ['ops'] });
      expect(await core.dispatch('wallets.update', { address: WALLET, label: `evil${RLO}gnp.exe` })).toMatchObject({ ok: false, error: { field: 'label' } });
      expect(await core.dispatch('wallets.update', { address: WALLET, tags: [`t${ESC}]0;x`] })).toMatchObject({ ok: false, error: { field: 'tags' } });
      expect((await core.call('wallets.list', undefined))[0]).toMatchObject({ label: 'Cold 🧊 store', tags: ['ops'] });
    } finally {
      await core.close();
    }
  });
});

describe('text from the service or an old label never reaches a terminal, CSV or PDF raw', { timeout: 120_000 }, () => {
  it('wallet list, sync output, CSV and PDF show each such character as a visible escape', async () => {
    // Real answers of the reference service, with names carrying an override and an escape.
    for (const path of ['/v2/portfolio/all_positions', '/v1/portfolio/positions_by_underlying', '/v1/portfolio/port_liq_analysis']) {
      const real = await (await fetch(`${sim.url}${path}?wallet=${WALLET}&chains=eth&date=2025-06-01&access_key=${KEY}`)).text();
      svc.byPath.set(path, {
        status: 200,
        body: real.replaceAll('"name":"Ether"', `"name":"Eth${RLO}reh\\u001b[31m"`).replaceAll('"symbol":"ETH"', `"symbol":"E${RLO}TH"`),
      });
    }
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', svc.url];
    const env = { FOLIOSCOPE_ACCESS_KEY: KEY };
    expect((await cliAsync([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury'])).status).toBe(0);
    // A label an older version accepted, with a terminal title escape and an override.
    const db = openDatabase(databaseFileFor(dir, svc.url));
    db.prepare('UPDATE wallets SET label = ?, tags = ?').run(`Tre${ESC}]0;pwned\u0007as${RLO}ury`, JSON.stringify([`t${ESC}[2J`]));
    db.close();

    const list = await cliAsync([...g, 'wallet', 'list']);
    expect(list.stdout).toContain('Tre<U+001B>]0;pwned<U+0007>as<U+202E>ury');
    expect(list.stdout).toContain('t<U+001B>[2J');
    const json = await cliAsync([...g, 'wallet', 'list', '--json']);
    expect(JSON.parse(json.stdout)[0].label).toBe(`Tre${ESC}]0;pwned\u0007as${RLO}ury`);

    const sync = await cliAsync([...g, 'sync', '--no-transactions', '--date', '2025-06-01'], { env });
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/ok\s+Positions of Tre<U\+001B>\]0;pwned<U\+0007>as<U\+202E>ury/);

    svc.answer = { status: 400, body: `{"message":"boom\\u001b[2J${RLO}gnp.exe"}` };
    svc.byPath.clear();
    const failed = await cliAsync([...g, 'sync', '--no-transactions'], { env });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain('boom<U+001B>[2J<U+202E>gnp.exe');

    for (const r of [list, json, sync, failed]) {
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }

    const csvPath = join(dir, 'positions.csv');
    const csv = await cliAsync([...g, 'export', 'csv', '--report', 'positions', '--date', '2025-06-01', '--out', csvPath]);
    expect(csv.status, csv.stderr).toBe(0);
    const csvText = readFileSync(csvPath, 'utf8');
    expect(csvText).toContain('Eth<U+202E>reh<U+001B>[31m');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(csvText).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202a-\u202e]/);

    const pdfPath = join(dir, 'report.pdf');
    const pdf = await cliAsync([...g, 'export', 'pdf', '--date', '2025-06-01', '--out', pdfPath]);
    expect(pdf.status, pdf.stderr).toBe(0);
    const pdfText = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(pdfText).toContain('Eth<U+202E>reh<U+001B>[31m');
    expect(pdfText).toContain('<U+202E>ury');
  });
});
