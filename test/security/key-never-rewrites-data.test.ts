import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { systemKeychain } from '../../src/main/core/secrets/keychain.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { type EchoRequest, type EchoService, startEchoService } from '../support/echo-service.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { KEY as SIM_KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: the key was removed as a substring of the whole body, so a short key (`k`) made every
 * token id unreadable and the sync failed blaming the service, and a key that is part of a hash
 * or an address rewrote stored values silently. Keys shorter than 12 characters are now refused
 * where they enter, saying so; a longer key found inside a data value fails that response,
 * naming the field, and nothing of it is kept; free text alone is scrubbed.
 */
const DATE = '2025-06-01';
const POSITIONS = '/v2/portfolio/all_positions';
const TRANSACTIONS = '/v3/transactions/txn_by_wallet';
const SHORT = 'short-key'; // 9 characters

let sim: Simulator;
let echo: EchoService;
beforeAll(async () => {
  sim = await startSimulator({ accessKey: SIM_KEY, seed: 7, now: () => SIM_NOW });
  echo = await startEchoService(47140, { url: sim.url, key: SIM_KEY });
});
afterAll(async () => {
  await echo.close();
  await sim.close();
});

function folderBytes(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('utf8'))
    .join('\n');
}

type Body = { data: Array<Record<string, any>> };

/** The reference service's answer to the request, altered by `alter` on the endpoint at `path`. */
function altering(path: string, alter: (body: Body, key: string) => void) {
  return async (req: EchoRequest) => {
    const real = await req.upstream();
    if (req.path !== path || real.status !== 200) return real;
    const body = JSON.parse(real.body) as Body;
    alter(body, req.key);
    return { status: 200, body: JSON.stringify(body) };
  };
}

describe('a key too short to be a secret is refused where it enters', { timeout: 120_000 }, () => {
  it('Settings (app.connect, key.set through the contract): a validation error naming the minimum; nothing is sent', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter() });
    try {
      const before = sim.requests.length;
      const r = await core.dispatch('app.connect', { baseUrl: sim.url, key: SHORT, sessionOnly: true });
      expect(r).toMatchObject({ ok: false, error: { kind: 'validation', field: 'key', message: expect.stringMatching(/at least 12 characters/) } });
      expect(JSON.stringify(r)).not.toContain(SHORT);
      expect(sim.requests.length).toBe(before);
      expect((await core.call('app.info', undefined)).mode).toBe('demo');

      await core.call('app.connect', { baseUrl: sim.url, key: SIM_KEY, sessionOnly: true });
      const set = await core.dispatch('key.set', { key: `  ${SHORT}\n`, sessionOnly: true });
      expect(set).toMatchObject({ ok: false, error: { kind: 'validation', field: 'key', message: expect.stringMatching(/at least 12 characters/) } });
    } finally {
      await core.close();
    }
  });

  it('`key set` in the CLI says so, before asking the keychain or the service', async () => {
    const dir = tempDir();
    const before = echo.seen.length;
    const r = await cliAsync(['--data-dir', dir, '--base-url', echo.url, 'key', 'set'], { input: `${SHORT}\n` });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^folioscope: The access key is too short to be a secret: Folioscope needs at least 12 characters\./);
    expect(r.stdout + r.stderr).not.toContain(SHORT);
    expect(echo.seen.length).toBe(before);
  });

  it('FOLIOSCOPE_ACCESS_KEY: the sync fails saying so, and the key is never sent', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', echo.url];
    expect((await cliAsync([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const before = echo.seen.length;
    echo.answer = (req) => req.upstream();
    const r = await cliAsync([...g, 'sync', '--no-transactions', '--date', DATE], { env: { FOLIOSCOPE_ACCESS_KEY: SHORT } });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED .*FOLIOSCOPE_ACCESS_KEY is too short to be a secret: Folioscope needs at least 12 characters/);
    expect(r.stdout + r.stderr).not.toContain(SHORT);
    expect(echo.seen.slice(before).filter((u) => u.includes(SHORT))).toEqual([]);
    const status = await cliAsync([...g, 'key', 'status'], { env: { FOLIOSCOPE_ACCESS_KEY: SHORT } });
    expect(status.stdout).toMatch(/FOLIOSCOPE_ACCESS_KEY is too short to be a secret: Folioscope needs at least 12 characters/);
  });

  it('a key kept in the keychain before the rule is not sent; connecting says to set it again', async () => {
    const keychain = systemKeychain();
    const account = new URL(sim.url).origin;
    await keychain.set(account, SHORT);
    const core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, keychain, demo: demoStarter() });
    try {
      const before = sim.requests.length;
      const r = await core.dispatch('app.connect', { baseUrl: sim.url });
      expect(r).toMatchObject({ ok: false, error: { field: 'key', message: expect.stringMatching(/kept in the keychain .* at least 12 characters/) } });
      expect(JSON.stringify(r)).not.toContain(SHORT);
      expect(sim.requests.length).toBe(before);
    } finally {
      await core.close();
      await keychain.delete(account);
    }
  });
});

describe('a key inside a data value fails that response; free text alone is scrubbed', { timeout: 120_000 }, () => {
  // Hexadecimal, so it can stand inside a hash or an address.
  const HEX_KEY = 'c0ffee15deadbeef';

  async function syncPositions(key: string) {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: echo.url, env: { FOLIOSCOPE_ACCESS_KEY: key } });
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    const job = (await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: DATE })], { failed: 'return' }))[0]!;
    return { core, job };
  }

  for (const [what, path, alter, field] of [
    [
      'an underlying id',
      POSITIONS,
      (b: Body, key: string) => (b.data[0]!['positions'][0].underlying[0].internal_id = `0x${'ab'.repeat(12)}${key}${'cd'.repeat(12)}`),
      'data[0].positions[0].underlying[0].internal_id',
    ],
    ['a wallet id', POSITIONS, (b: Body, key: string) => (b.data[0]!['wallet_id'] = `0x${key}${'0'.repeat(24)}`), 'data[0].wallet_id'],
    [
      'a token id',
      '/v1/portfolio/positions_by_underlying',
      (b: Body, key: string) => (b.data[0]!['positions'][0].token_id = `eth:0x${key}`),
      'data[0].positions[0].token_id',
    ],
  ] as const) {
    it(`${what}: the job fails naming the field, never the key, and nothing of the response is kept`, async () => {
      echo.answer = altering(path, alter);
      const { core, job } = await syncPositions(HEX_KEY);
      try {
        expect(job.state).toBe('failed');
        expect(job.error?.message).toContain(`${field}: this value holds the access key`);
        expect(job.error?.message).toMatch(/nothing of this response was kept/);
        const db = await cacheOf(core);
        const endpoint = path === POSITIONS ? 'allPositions' : 'positionsByUnderlying';
        expect(db.prepare('SELECT count(*) AS n FROM snapshots WHERE endpoint = ?').get(endpoint)).toEqual({ n: 0 });
        const shown = JSON.stringify([await core.dispatch('wallets.status', undefined), await core.dispatch('sync.jobs', undefined)]);
        expect(shown).not.toContain(HEX_KEY);
        const dir = (await core.call('app.info', undefined)).dataDir;
        await core.close();
        const bytes = folderBytes(dir);
        expect(bytes).not.toContain(HEX_KEY);
        expect(bytes).not.toContain('REDACTED');
      } finally {
        await core.close();
      }
    });
  }

  // As digits in the text, and in an exponent form that only reads as the key once parsed.
  for (const spelled of ['7382910465120.25', '7.38291046512025e12']) {
    it(`a number holding a key of digits (${spelled}) fails the same way`, async () => {
      const digits = '738291046512';
      echo.answer = async (req) => {
        const real = await altering(POSITIONS, (b) => (b.data[0]!['positions'][0].principal_nav = '@@NAV@@'))(req);
        return { ...real, body: real.body.replace('"@@NAV@@"', spelled) };
      };
      const { core, job } = await syncPositions(digits);
      try {
        expect(job.state).toBe('failed');
        expect(job.error?.message).toContain('data[0].positions[0].principal_nav: this value holds the access key');
        expect(job.error?.message).not.toContain(digits);
        const db = await cacheOf(core);
        expect(db.prepare("SELECT count(*) AS n FROM snapshots WHERE endpoint = 'allPositions'").get()).toEqual({ n: 0 });
      } finally {
        await core.close();
      }
    });
  }

  it('a transaction hash: the transactions job fails naming it; no transaction is kept', async () => {
    echo.answer = altering(TRANSACTIONS, (b, key) => {
      const rows = b.data[0]!['transaction_history'] as Array<{ txn_hash: string }>;
      if (rows[0]) rows[0].txn_hash = `0x${key}${rows[0].txn_hash.slice(2 + key.length)}`;
    });
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: echo.url, env: { FOLIOSCOPE_ACCESS_KEY: HEX_KEY } });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const job = (await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })], { failed: 'return' }))[0]!;
      expect(job.state).toBe('failed');
      expect(job.error?.message).toMatch(/data\[0\]\.transaction_history\[0\]\.txn_hash: this value holds the access key/);
      expect(job.error?.message).not.toContain(HEX_KEY);
      const db = await cacheOf(core);
      expect(db.prepare("SELECT count(*) AS n FROM transactions WHERE txn_hash LIKE '%REDACTED%'").get()).toEqual({ n: 0 });
      expect(JSON.stringify(db.prepare('SELECT * FROM transactions').all())).not.toContain(HEX_KEY);
    } finally {
      await core.close();
    }
  });

  it('the same key in a position name is scrubbed there, and every id, hash and number is stored as sent', async () => {
    echo.answer = altering(POSITIONS, (b, key) => (b.data[0]!['positions'][0].name = `Pool ${key} (echoed)`));
    const { core, job } = await syncPositions(HEX_KEY);
    try {
      expect(job.state, JSON.stringify(job.error)).toBe('done');
      const real = (await (await fetch(`${sim.url}${POSITIONS}?wallet=${WALLET}&chains=eth&date=${DATE}&access_key=${SIM_KEY}`)).json()) as Body;
      const stored = await core.call('positions.get', { wallet: WALLET, date: DATE, view: 'all' });
      const positions = stored.chains[0]!.snapshot!.data[0]!.positions as Array<Record<string, any>>;
      expect(positions[0]!['name']).toBe('Pool REDACTED (echoed)');
      const ids = (ps: Array<Record<string, any>>) =>
        ps.map((p) => [p['cid'], p['protocol_id'], Number(p['principal_nav']), ...p['underlying'].map((u: { internal_id: string }) => u.internal_id)]);
      expect(ids(positions)).toEqual(ids(real.data[0]!['positions']));
    } finally {
      await core.close();
    }
  });
});
