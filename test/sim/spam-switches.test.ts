import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { demoWorldFromEnv, ENV_DEMO_SPAM } from '../../src/sim/demo.ts';
import { spamTruth, type SpamTruth } from '../../src/sim/spam.ts';
import { defaultHistory } from '../../src/sim/transactions.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';

/**
 * Spam's switches (issue 38, item 1), each off by default: the simulator's `spam` option, the
 * standalone simulator's `--spam` (a process, as tests that measure a client against the truth
 * drive it), and FOLIOSCOPE_DEMO_SPAM for the demo the shells start.
 */
const KEY = 'spam-switch-key-5e2b';
const withSpam = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '300', '--spam']);
const without = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '300']);

const truthAt = async (url: string, wallet: string, chain: string): Promise<SpamTruth> =>
  (await (await fetch(`${url}/_sim/spam-truth?wallet=${wallet}&chains=${chain}`)).json()) as SpamTruth;

async function history(url: string, wallet: string, chain: string): Promise<string[]> {
  const u = new URL(url + ENDPOINTS.transactionsByWallet.path);
  for (const [k, v] of Object.entries({
    access_key: KEY,
    wallet,
    chains: chain,
    start_time: '0',
    end_time: String(Math.floor(SIM_NOW / 1000)),
    pageSize: '1000',
  }))
    u.searchParams.set(k, v);
  return ((await (await fetch(u)).json()) as any).data[0].transaction_history.map((t: any) => t.txn_hash);
}

describe('spam switches', () => {
  const options = [useSimulator(), useSimulator({ spam: false }), useSimulator({ spam: null }), useSimulator({ spam: true }), useSimulator({ spam: {} })];
  it('the option: off when not given, false or null; on when true or options', () => {
    expect(options.map((c) => c.sim.spam !== null)).toEqual([false, false, false, true, true]);
  });

  it('`sim --spam` serves spam and its truth at /_sim/spam-truth; without it, none', async () => {
    const on = await truthAt(withSpam.url, WALLET, 'eth');
    expect(on.enabled).toBe(true);
    expect(on.tokens.length).toBeGreaterThan(0);
    const served = new Set(await history(withSpam.url, WALLET, 'eth'));
    const genuine = new Set(await history(without.url, WALLET, 'eth'));
    // What the process serves beyond the world without spam is exactly the truth's spam.
    expect([...served].filter((h) => !genuine.has(h)).sort()).toEqual(on.transactions.map((t) => t.txn_hash).sort());
    expect([...genuine].every((h) => served.has(h))).toBe(true);
    // The process's truth is the plan's, for its own history (300 transactions).
    expect(on).toEqual(spamTruth({ ...defaultHistory(1, 300) }, WALLET, 'eth'));
    expect(await truthAt(without.url, WALLET, 'eth')).toMatchObject({ enabled: false, tokens: [], transactions: [] });
  });

  it(`${ENV_DEMO_SPAM}: 1, true, yes or on turn the demo's spam on; anything else leaves it off`, () => {
    for (const v of ['1', 'true', 'TRUE', 'yes', 'on', ' 1 ']) expect(demoWorldFromEnv({ [ENV_DEMO_SPAM]: v }), v).toEqual({ spam: true });
    for (const v of [undefined, '', '0', 'false', 'off', 'no', 'spam']) expect(demoWorldFromEnv({ [ENV_DEMO_SPAM]: v }), String(v)).toEqual({});
  });

  it(`the CLI's demo has the junk tokens with ${ENV_DEMO_SPAM}=1, and none without it`, async () => {
    const date = '2026-11-01';
    const junk = spamTruth(defaultHistory(1), WALLET, 'eth', { to: date }).tokens;
    expect(junk.length).toBeGreaterThan(0);
    const cids = async (env: Record<string, string>) => {
      const g = ['--data-dir', tempDir()];
      const run = (args: string[]) => runCliHere([...g, ...args], { env, now: () => SIM_NOW });
      expect((await run(['wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
      const sync = await run(['sync', '--date', date, '--no-transactions']);
      expect(sync.status, sync.stderr).toBe(0);
      // The whole view (its spam rows every one): the default summary names only a few.
      const view = await run(['portfolio', '--date', date, '--json', '--all']);
      expect(view.status, view.stderr).toBe(0);
      return view.stdout;
    };
    const on = await cids({ [ENV_DEMO_SPAM]: '1' });
    const off = await cids({ [ENV_DEMO_SPAM]: '0' });
    for (const t of junk) {
      expect(on, t.symbol).toContain(t.position_cid);
      expect(off).not.toContain(t.position_cid);
    }
  });
});
