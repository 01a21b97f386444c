import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { chainById, CHAINS } from '../../src/sim/chains.ts';
import { onChain, TOKENS } from '../../src/sim/catalog.ts';
import { TOPIC } from '../../src/sim/logs.ts';
import { DEFAULT_VICTIM, SPAM_METHODS, spamTruth, type SpamTruth } from '../../src/sim/spam.ts';
import { defaultHistory } from '../../src/sim/transactions.ts';
import { conformance, LIQUIDITY_SNAPSHOT, POSITION_SNAPSHOT, TRANSACTION_HISTORY, TRANSACTION_LOGS, UNDERLYING_SNAPSHOT } from '../support/spec-tables.ts';
import { SIM_NOW, useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * The hostile world (issue 38, item 1): with spam on, the reference service is the same world plus
 * junk tokens, spam transactions and their logs, and one payment made to a lookalike; the truth
 * (`/_sim/spam-truth`, `spamTruth`) lists exactly what was added. Each test sets the world with
 * spam beside the one without and compares what they serve.
 */
const plain = useSimulator();
const spammy = useSimulator({ spam: true });
/** Readings a service may have, with spam: paging and ranges must hold over the woven rows in each. */
const oldestFirst = useSimulator({ spam: true, conventions: { order: 'oldest-first', pageBase: 0 } });
const unordered = useSimulator({ spam: true, conventions: { order: 'unordered', bounds: 'half-open' } });

const MEMBERS = [
  { wallet: WALLET, chain: 'eth' },
  { wallet: WALLET, chain: 'arb' },
  { wallet: WALLET_2, chain: 'eth' },
] as const;
const DATES = ['2024-06-01', '2025-08-09', '2026-11-01'] as const;
const END = String(Math.floor(SIM_NOW / 1000));
const NATIVE_PLACEHOLDER = '0x' + 'e'.repeat(40);

type Ctx = ReturnType<typeof useSimulator>;

async function truth(ctx: Ctx, wallet: string, chain: string, range: { from?: string; to?: string } = {}): Promise<SpamTruth> {
  const res = await fetch(`${ctx.sim.url}/_sim/spam-truth?${new URLSearchParams({ wallet, chains: chain, ...range })}`);
  expect(res.status).toBe(200);
  return (await res.json()) as SpamTruth;
}

const views = async (ctx: Ctx, wallet: string, chain: string, date: string) => {
  const params = { wallet, chains: chain, date };
  return {
    all: (await ctx.get(ENDPOINTS.allPositions.path, params)).json.data[0],
    grouped: (await ctx.get(ENDPOINTS.positionsByUnderlying.path, params)).json.data[0],
    liq: (await ctx.get(ENDPOINTS.liquidityAnalysis.path, params)).json.data[0],
  };
};

/** Every row of a range, page by page until an empty page (the reading's first page first). */
async function pages(ctx: Ctx, wallet: string, chain: string, pageSize: number, start = '0', end = END): Promise<any[]> {
  const base = ctx.sim.conventions.pageBase;
  const rows: any[] = [];
  for (let page = base; ; page++) {
    const { json } = await ctx.get(ENDPOINTS.transactionsByWallet.path, {
      wallet,
      chains: chain,
      start_time: start,
      end_time: end,
      page: String(page),
      pageSize: String(pageSize),
    });
    const got = json.data[0].transaction_history;
    if (!got.length) return rows;
    rows.push(...got);
  }
}

const logsOf = async (ctx: Ctx, hash: string, chain: string, pageSize = 1000) => {
  const out: any[] = [];
  let first: any = null;
  for (let page = 1; ; page++) {
    const { json } = await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: hash, chain_id: chain, page: String(page), pageSize: String(pageSize) });
    first ??= json;
    if (!json.data[0]?.logs.length) return { first, logs: out };
    out.push(...json.data[0].logs);
  }
};

const topicAddress = (topic: string) => '0x' + topic.slice(26);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const catalogAddresses = (chain: string) => new Set(Object.keys(TOKENS).map((k) => onChain(k, chainById(chain)!).address));

describe('spam: positions', () => {
  it.each(MEMBERS)('$wallet on $chain: genuine positions as before, then the junk held by the day, in all three views', async ({ wallet, chain }) => {
    for (const date of DATES) {
      const before = await views(plain, wallet, chain, date);
      const after = await views(spammy, wallet, chain, date);
      const t = await truth(spammy, wallet, chain, { to: date });
      const n = before.all.positions.length;
      // The genuine positions are the same, first and in their order; the rest is the truth's junk, oldest first.
      expect(after.all.positions.slice(0, n)).toEqual(before.all.positions);
      expect(after.liq.positions.slice(0, n)).toEqual(before.liq.positions);
      const junk = after.all.positions.slice(n);
      expect(junk.map((p: any) => p.cid)).toEqual(t.tokens.map((x) => x.position_cid));
      expect(junk.map((p: any) => p.underlying[0].internal_id)).toEqual(t.tokens.map((x) => x.internal_id));
      expect(after.liq.positions.slice(n).map((p: any) => p.cid)).toEqual(t.tokens.map((x) => x.position_cid));
      // By underlying: every genuine group as it was, in the same order among themselves; one group per junk token.
      const genuineIds = new Set(before.grouped.positions.map((g: any) => g.token_id));
      expect(after.grouped.positions.filter((g: any) => genuineIds.has(g.token_id))).toEqual(before.grouped.positions);
      expect(
        after.grouped.positions
          .filter((g: any) => !genuineIds.has(g.token_id))
          .map((g: any) => g.token_id)
          .sort(),
      ).toEqual(t.tokens.map((x) => x.internal_id).sort());
      // Junk sits in contracts the catalog does not know, as plain wallet balances.
      const known = catalogAddresses(chain);
      for (const x of t.tokens) expect(known.has(x.token_cid), x.symbol).toBe(false);
      for (const p of junk) expect(p).toMatchObject({ asset_type: 'wallet', protocol_id: 'wallet', reward_nav: 0 });
      expect(conformance(after.all, POSITION_SNAPSHOT)).toEqual([]);
      expect(conformance(after.grouped, UNDERLYING_SNAPSHOT)).toEqual([]);
      expect(conformance(after.liq, LIQUIDITY_SNAPSHOT)).toEqual([]);
    }
  });

  it.each(MEMBERS)(
    '$wallet on $chain: the views agree, junk included (totals by token = totals by position; the liquidity view the same quantities)',
    async ({ wallet, chain }) => {
      for (const date of DATES) {
        const { all, grouped, liq } = await views(spammy, wallet, chain, date);
        expect(sum(grouped.positions.map((g: any) => g.total_nav))).toBeCloseTo(sum(all.positions.map((p: any) => p.principal_nav + p.reward_nav)), 1);
        for (const p of all.positions)
          for (const u of p.underlying) {
            const g = grouped.positions.find((x: any) => x.token_id === u.internal_id);
            // (A position may hold one token twice, a lock and its reward: matched by value too.)
            expect(g.breakdown.find((b: any) => b.pos_id === p.cid && b.qty === u.qty)).toMatchObject({ nav: u.nav, asset_type: p.asset_type });
          }
        expect(liq.positions.map((p: any) => p.cid)).toEqual(all.positions.map((p: any) => p.cid));
        liq.positions.forEach((lp: any, i: number) => expect(lp.underlying.map((u: any) => u.qty)).toEqual(all.positions[i].underlying.map((u: any) => u.qty)));
      }
    },
  );

  it('junk of every kind, with absurd values and a liquidity view that says there is no market', async () => {
    const kinds = new Set<string>();
    for (const { wallet, chain } of MEMBERS) {
      const date = '2026-11-01';
      const t = await truth(spammy, wallet, chain, { to: date });
      const { all, liq } = await views(spammy, wallet, chain, date);
      const held = new Map<string, string>(); // genuine symbol → its contract
      for (const p of all.positions)
        for (const u of p.underlying) if (!t.tokens.some((x) => x.internal_id === u.internal_id)) held.set(u.symbol, u.internal_id.split(':')[1]);
      for (const x of t.tokens) {
        kinds.add(x.kind);
        const p = all.positions.find((q: any) => q.cid === x.position_cid);
        const lp = liq.positions.find((q: any) => q.cid === x.position_cid);
        if (x.kind === 'quiet') expect(p.principal_nav).toBe(0);
        // Hundreds of thousands to millions when sent; an impersonation moves with the price of what it copies.
        else expect(p.principal_nav, x.symbol).toBeGreaterThan(30_000);
        expect(p.principal_nav).toBeLessThan(20_000_000);
        if (x.kind === 'url') expect(x.symbol + x.name).toMatch(/\.(org|net|com|cc|io|app)|t\.me\/|CLAIM/);
        if (x.kind === 'impersonation') {
          // The symbol and name of a token the wallet holds, from another contract.
          expect(held.get(x.symbol), x.symbol).toBe(x.imitates!.token_cid);
          expect(x.token_cid).not.toBe(x.imitates!.token_cid);
        }
        if (x.kind === 'native-impersonation') {
          expect([x.symbol, x.name]).toEqual([chainById(chain)!.nativeSymbol, chainById(chain)!.nativeName]);
          expect(x.token_cid).not.toBe(NATIVE_PLACEHOLDER);
          expect(x.imitates!.token_cid).toBe(NATIVE_PLACEHOLDER);
        }
        // No market: withdrawing gives nothing back (slippage 100 %), and the wallet's share of a huge supply is tiny.
        const u = lp.underlying[0];
        expect(u.details.slippage).toBe(1);
        expect(u.total_supply).toBeGreaterThanOrEqual(u.qty * 1e5 * 0.99);
        expect(u.pct_ownership).toBeGreaterThan(0);
        expect(u.pct_ownership).toBeLessThanOrEqual(0.001);
        expect(lp.principal_pct_ownership).toBe(u.pct_ownership);
      }
      // The genuine positions of the liquidity view never say slippage 1.
      for (const lp of liq.positions)
        if (!t.tokens.some((x) => x.position_cid === lp.cid)) for (const u of lp.underlying) expect(u.details.slippage ?? 0).toBeLessThan(1);
    }
    expect([...kinds].sort()).toEqual(['impersonation', 'native-impersonation', 'quiet', 'url']);
  });

  it('a junk token is held from the day of its first airdrop on, so dates differ; the amount is what its airdrops brought', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    const airdrops = t.transactions.filter((x) => x.kind === 'airdrop');
    for (const x of t.tokens) {
      const day = x.first_day;
      const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const on = (await spammy.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date: day })).json.data[0].positions;
      const off = (await spammy.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date: before })).json.data[0].positions;
      const held = on.find((p: any) => p.cid === x.position_cid);
      expect(off.some((p: any) => p.cid === x.position_cid)).toBe(false);
      const received = airdrops.filter((a) => a.token_cid === x.token_cid && a.date.slice(0, 10) <= day);
      expect(held.underlying[0].qty).toBeCloseTo(sum(received.map((a) => a.qty)), 5);
    }
    // Every token has a receipt in the history.
    for (const x of t.tokens) expect(airdrops.some((a) => a.token_cid === x.token_cid)).toBe(true);
    const early = await truth(spammy, WALLET, 'eth', { to: '2024-06-01' });
    expect(early.tokens.length).toBeLessThan(t.tokens.length);
  });
});

describe('spam: transactions', () => {
  it.each(MEMBERS)(
    '$wallet on $chain: the genuine rows as before, in their order; the rest is exactly the truth’s spam, woven in by time',
    async ({ wallet, chain }) => {
      const before = await pages(plain, wallet, chain, 1000);
      const after = await pages(spammy, wallet, chain, 1000);
      const t = await truth(spammy, wallet, chain);
      const genuine = new Set(before.map((r) => r.txn_hash));
      const payment = t.lookalike_payment?.txn_hash;
      const kept = after.filter((r) => genuine.has(r.txn_hash));
      expect(kept.length).toBe(before.length);
      kept.forEach((r, k) => {
        if (r.txn_hash === payment) expect(r).toEqual({ ...before[k], to: t.lookalike_payment!.lookalike });
        else expect(r).toEqual(before[k]);
      });
      // Every served row that is not genuine is in the truth, and every spam transaction of the truth is served.
      const added = after.filter((r) => !genuine.has(r.txn_hash));
      // Spam rows have the genuine rows' members, in their order: the JSON's shape gives nothing away.
      for (const r of added) expect(Object.keys(r)).toEqual(Object.keys(before[0]));
      expect(added.map((r) => r.txn_hash).sort()).toEqual(t.transactions.map((x) => x.txn_hash).sort());
      expect(after.length).toBe(before.length + t.transactions.length);
      // Newest first, as the genuine rows are.
      for (let k = 1; k < after.length; k++) expect(after[k].date <= after[k - 1].date).toBe(true);
      expect(conformance({ transaction_history: after, start_block: 1, end_block: 2, completion_ratio: 1 }, TRANSACTION_HISTORY)).toEqual([]);
      // Realistic rates: a few hundred junk rows beside 2,000 genuine ones, of each kind.
      const kinds = t.transactions.map((x) => x.kind);
      for (const k of ['airdrop', 'zero-value', 'dust'] as const) expect(kinds.filter((x) => x === k).length, k).toBeGreaterThan(k === 'airdrop' ? 1 : 50);
      expect(t.transactions.length).toBeLessThan(before.length / 4);
    },
  );

  it('each kind looks as it does on chain', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    const rows = new Map((await pages(spammy, WALLET, 'eth', 1000)).map((r) => [r.txn_hash, r]));
    for (const x of t.transactions) {
      const r = rows.get(x.txn_hash)!;
      expect(r).toMatchObject({ wallet_id: WALLET, chain_id: 'eth', status: 1 });
      expect(r.details).toEqual([{ token_cid: x.token_cid, type: x.kind === 'zero-value' ? 'out' : 'in', qty: x.qty, symbol: x.symbol }]);
      if (x.kind === 'airdrop') {
        // A multi-recipient send by a spammer: the wallet is neither its sender nor the contract it called.
        expect([SPAM_METHODS.airdrop, SPAM_METHODS.airdropVia]).toContain(r.method_hex);
        expect(r.from).not.toBe(WALLET);
        expect(r.to).not.toBe(WALLET);
        expect(r.to_type).toBe('contract');
      } else if (x.kind === 'zero-value') {
        // transferFrom(wallet, lookalike, 0) of a genuine token, sent by the lookalike.
        expect(r).toMatchObject({ method_hex: SPAM_METHODS.transferFrom, from: x.lookalike, to: x.token_cid, action_type: 'transfer_out' });
        expect(x.qty).toBe(0);
      } else {
        expect(r).toMatchObject({ method_hex: SPAM_METHODS.transfer, from: x.lookalike, to: WALLET, action_type: 'transfer_in' });
        expect(x.qty).toBeGreaterThan(0);
        expect(x.qty).toBeLessThanOrEqual(0.01);
      }
      if (x.kind !== 'airdrop') expect(catalogAddresses('eth').has(x.token_cid)).toBe(true);
    }
  });

  it.each([
    ['newest first', () => spammy],
    ['oldest first, pages from 0', () => oldestFirst],
    ['unordered, half-open bounds', () => unordered],
  ] as const)('paging over the woven rows (%s): every row once at page sizes 1000, 333, 100 and 7', async (_name, ctx) => {
    const whole = await pages(ctx(), WALLET, 'eth', 1000);
    const t = await truth(spammy, WALLET, 'eth');
    expect(whole.length).toBe(2000 + t.transactions.length);
    expect(new Set(whole.map((r) => r.txn_hash)).size).toBe(whole.length);
    for (const size of [333, 100, 7]) {
      const got = await pages(ctx(), WALLET, 'eth', size);
      // The same rows in the same order: pages meet without a gap or an overlap.
      expect(
        got.map((r) => r.txn_hash),
        `page size ${size}`,
      ).toEqual(whole.map((r) => r.txn_hash));
    }
  });

  it('time ranges over the woven rows: bounds at a spam row’s second and a genuine row’s, counts add up, pages split the range exactly', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    const before = await pages(plain, WALLET, 'eth', 1000);
    const sec = (iso: string) => Date.parse(iso) / 1000;
    const cases = [
      [sec(t.transactions[10]!.date), sec(t.transactions[40]!.date)],
      [sec(before[1500].date), sec(t.transactions[25]!.date)],
      [sec(t.transactions[60]!.date), sec(before[300].date)],
      [sec(t.transactions[5]!.date), sec(t.transactions[5]!.date)],
    ].map(([a, b]) => [Math.min(a!, b!), Math.max(a!, b!)] as const);
    for (const [start, end] of cases) {
      const want =
        before.filter((r) => sec(r.date) >= start && sec(r.date) <= end).length +
        t.transactions.filter((x) => sec(x.date) >= start && sec(x.date) <= end).length;
      const all = await pages(spammy, WALLET, 'eth', 1000, String(start), String(end));
      expect(all.length, `${start}..${end}`).toBe(want);
      // Inclusive at both ends: the rows at exactly start and end are in.
      expect(all.some((r) => sec(r.date) === start)).toBe(true);
      expect(all.some((r) => sec(r.date) === end)).toBe(true);
      expect(all.every((r) => sec(r.date) >= start && sec(r.date) <= end)).toBe(true);
      const small = await pages(spammy, WALLET, 'eth', 9, String(start), String(end));
      expect(small.map((r) => r.txn_hash)).toEqual(all.map((r) => r.txn_hash));
    }
    // A range's truth is the spam dated in it.
    const range = await truth(spammy, WALLET, 'eth', { from: '2025-01-01', to: '2025-03-31' });
    const served = await pages(spammy, WALLET, 'eth', 1000, String(Date.UTC(2025, 0, 1) / 1000), String(Date.UTC(2025, 3, 1) / 1000 - 1));
    const genuine = new Set(before.map((r) => r.txn_hash));
    expect(
      served
        .filter((r) => !genuine.has(r.txn_hash))
        .map((r) => r.txn_hash)
        .sort(),
    ).toEqual(range.transactions.map((x) => x.txn_hash).sort());
    expect(range.transactions.length).toBeGreaterThan(5);
  });
});

describe('spam: logs', () => {
  it('an airdrop’s logs are a Transfer to each of many recipients, the wallet once among them; paging finds them all', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    for (const x of t.transactions.filter((y) => y.kind === 'airdrop')) {
      const { first, logs } = await logsOf(spammy, x.txn_hash, 'eth', 25);
      expect(first.total).toBe(logs.length);
      expect(conformance(first.data[0], TRANSACTION_LOGS)).toEqual([]);
      expect(Object.keys(first.data[0])).toEqual(['txn_hash', 'block', 'from', 'from_type', 'txn_fee', 'gas_fee', 'chain_id', 'date', 'logs']);
      expect(logs.length).toBeGreaterThanOrEqual(40);
      expect(logs.map((l) => l.log_index)).toEqual(logs.map((_, k) => k));
      expect(logs.every((l) => l.topics[0] === TOPIC.transfer)).toBe(true);
      const to = logs.map((l) => topicAddress(l.topics[2]));
      expect(new Set(to).size).toBe(logs.length);
      expect(to.filter((a) => a === WALLET)).toHaveLength(1);
    }
  });

  it('poisoning’s log: a Transfer of 0 from the wallet to the lookalike, or dust from the lookalike to the wallet', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    for (const x of t.transactions.filter((y) => y.kind !== 'airdrop').slice(0, 30)) {
      const { logs } = await logsOf(spammy, x.txn_hash, 'eth');
      expect(logs).toHaveLength(1);
      const [topic, from, to] = logs[0].topics;
      expect(topic).toBe(TOPIC.transfer);
      const amount = BigInt(logs[0].data);
      if (x.kind === 'zero-value') {
        expect([topicAddress(from), topicAddress(to), amount]).toEqual([WALLET, x.lookalike, 0n]);
      } else {
        expect([topicAddress(from), topicAddress(to)]).toEqual([x.lookalike, WALLET]);
        const decimals = TOKENS[Object.keys(TOKENS).find((k) => onChain(k, chainById('eth')!).address === x.token_cid)!]!.decimals;
        expect(Number(amount) / 10 ** decimals).toBeCloseTo(x.qty, 12);
      }
    }
  });

  it('genuine logs are as before, but the payment’s Transfer names the lookalike', async () => {
    const t = await truth(spammy, WALLET, 'eth');
    const before = await pages(plain, WALLET, 'eth', 1000);
    const pay = t.lookalike_payment!;
    for (const r of [...before.filter((_, k) => k % 97 === 0), before.find((x) => x.txn_hash === pay.txn_hash)]) {
      const a = await logsOf(plain, r.txn_hash, 'eth');
      const b = await logsOf(spammy, r.txn_hash, 'eth');
      expect(b.first.total).toBe(a.first.total);
      if (r.txn_hash !== pay.txn_hash) {
        expect(b.first.data).toEqual(a.first.data);
        continue;
      }
      const lookalikeTopic = '0x' + '0'.repeat(24) + pay.lookalike.slice(2);
      const counterpartyTopic = '0x' + '0'.repeat(24) + pay.counterparty.slice(2);
      expect(b.logs).toEqual(a.logs.map((l: any) => ({ ...l, topics: l.topics.map((x: string) => (x === counterpartyTopic ? lookalikeTopic : x)) })));
      expect(b.logs.some((l: any) => l.topics[2] === lookalikeTopic)).toBe(true);
    }
  });
});

describe('spam: address poisoning and the payment to a lookalike', () => {
  it('lookalikes share the first and last hex digits of a counterparty the wallet really deals with, and differ in the middle', async () => {
    for (const { wallet, chain } of MEMBERS) {
      const t = await truth(spammy, wallet, chain);
      const genuine = await pages(plain, wallet, chain, 1000);
      const parties = new Set(genuine.flatMap((r) => [r.from, r.to]));
      expect(t.lookalikes.length).toBeGreaterThan(20);
      for (const l of t.lookalikes) {
        const [a, b] = [l.address.slice(2), l.imitates.slice(2)];
        expect(l.prefix).toBeGreaterThanOrEqual(4);
        expect(l.prefix).toBeLessThanOrEqual(6);
        expect(l.suffix).toBeGreaterThanOrEqual(4);
        expect(l.suffix).toBeLessThanOrEqual(6);
        expect(a.slice(0, l.prefix)).toBe(b.slice(0, l.prefix));
        expect(a.slice(40 - l.suffix)).toBe(b.slice(40 - l.suffix));
        expect(a[l.prefix]).not.toBe(b[l.prefix]);
        expect(a[39 - l.suffix]).not.toBe(b[39 - l.suffix]);
        expect(parties.has(l.imitates), l.imitates).toBe(true);
        expect(parties.has(l.address)).toBe(false);
      }
      // Poisoning follows the genuine transfer it imitates (from a minute to three days later).
      for (const x of t.transactions.filter((y) => y.kind !== 'airdrop').slice(0, 40)) {
        const at = Date.parse(x.date);
        const earlier = genuine.filter(
          (r) => (r.to === x.imitates || r.from === x.imitates) && Date.parse(r.date) < at && Date.parse(r.date) >= at - 3 * 86_400_000 - 1000,
        );
        expect(earlier.length, x.txn_hash).toBeGreaterThan(0);
      }
    }
  });

  it('one payment, in the demo treasury on eth, went to a lookalike that had poisoned the wallet before; nowhere else', async () => {
    expect(DEFAULT_VICTIM).toEqual({ wallet: WALLET, chain: 'eth' });
    const t = await truth(spammy, WALLET, 'eth');
    const pay = t.lookalike_payment!;
    expect(pay).toMatchObject({ wallet: WALLET, chain: 'eth' });
    const before = await pages(plain, WALLET, 'eth', 1000);
    const after = await pages(spammy, WALLET, 'eth', 1000);
    const byHash = new Map(before.map((r) => [r.txn_hash, r]));
    const changed = after.filter((r) => byHash.has(r.txn_hash) && JSON.stringify(r) !== JSON.stringify(byHash.get(r.txn_hash)));
    expect(changed.map((r) => r.txn_hash)).toEqual([pay.txn_hash]);
    const [row] = changed;
    const was = byHash.get(pay.txn_hash);
    // A plain payment of a genuine token to a real counterparty, whose recipient became the lookalike: the amount left as before.
    expect(was).toMatchObject({ action_type: 'transfer_out', from: WALLET, to: pay.counterparty, status: 1 });
    expect(row).toMatchObject({ from: WALLET, to: pay.lookalike, details: was.details });
    expect(pay).toMatchObject({ token_cid: was.details[0].token_cid, symbol: was.details[0].symbol, qty: was.details[0].qty, date: was.date });
    expect(t.lookalikes.find((l) => l.address === pay.lookalike)?.imitates).toBe(pay.counterparty);
    // The lookalike had poisoned the wallet before.
    expect(t.transactions.some((x) => x.lookalike === pay.lookalike && x.date < pay.date)).toBe(true);
    // Balances and NAV are the world's without spam: only the recipient differs.
    const date = pay.date.slice(0, 10);
    const a = await views(plain, WALLET, 'eth', date);
    const b = await views(spammy, WALLET, 'eth', date);
    expect(b.all.positions.slice(0, a.all.positions.length)).toEqual(a.all.positions);
    for (const m of MEMBERS.slice(1)) expect((await truth(spammy, m.wallet, m.chain)).lookalike_payment).toBeNull();
    // A range before it does not list it; one over it does.
    expect((await truth(spammy, WALLET, 'eth', { to: '2024-12-31' })).lookalike_payment).toBeNull();
    expect((await truth(spammy, WALLET, 'eth', { from: date, to: date })).lookalike_payment).toEqual(pay);
  });
});

describe('spam: the truth', () => {
  it('the route and the function give the same truth, from the plan; the route checks its parameters', async () => {
    const viaRoute = await truth(spammy, WALLET, 'arb', { from: '2025-01-01', to: '2025-12-31' });
    expect(spamTruth(defaultHistory(7), WALLET, 'arb', { from: '2025-01-01', to: '2025-12-31' })).toEqual(viaRoute);
    expect(viaRoute).toMatchObject({ enabled: true, wallet: WALLET, chain: 'arb', from: '2025-01-01', to: '2025-12-31' });
    const bad = await fetch(`${spammy.sim.url}/_sim/spam-truth?wallet=nope&chains=eth`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ parameter: 'wallet' });
    expect((await fetch(`${spammy.sim.url}/_sim/spam-truth?wallet=${WALLET}&chains=eth&from=2025-13-01`)).status).toBe(400);
    expect((await fetch(`${spammy.sim.url}/_sim/nothing`)).status).toBe(404);
    // Not one of the service's requests: not counted, no key asked.
    expect(spammy.sim.requests.some((r) => r.endpoint === null)).toBe(false);
  });

  it('every chain has spam, deterministic by seed', async () => {
    for (const c of CHAINS) {
      const a = spamTruth(defaultHistory(7), WALLET_2, c.id);
      expect(a.tokens.length, c.id).toBeGreaterThanOrEqual(2);
      expect(a.transactions.length, c.id).toBeGreaterThan(50);
      expect(spamTruth(defaultHistory(7), WALLET_2, c.id)).toEqual(a);
    }
    expect(spamTruth(defaultHistory(8), WALLET_2, 'eth').transactions[0]!.txn_hash).not.toBe(
      spamTruth(defaultHistory(7), WALLET_2, 'eth').transactions[0]!.txn_hash,
    );
  });

  it('no victim: no payment to a lookalike anywhere, the rest the same', () => {
    const a = spamTruth(defaultHistory(7), WALLET, 'eth', {}, { victim: null });
    const b = spamTruth(defaultHistory(7), WALLET, 'eth');
    expect(a.lookalike_payment).toBeNull();
    expect(a.transactions).toEqual(b.transactions);
    expect(spamTruth(defaultHistory(7), WALLET_2, 'eth', {}, { victim: { wallet: WALLET_2, chain: 'eth' } }).lookalike_payment).not.toBeNull();
  });
});

describe('spam with a live indexer', () => {
  const live = useSimulator({ spam: true, txnsPerWallet: 300, live: { modes: ['arrivals'] } });
  const still = useSimulator({ spam: true, txnsPerWallet: 300 });
  it('indexes the world’s rows, spam woven in: the newest arrive while the client reads, then it holds what the static service serves', async () => {
    const eth = chainById('eth')!;
    const want = (await pages(still, WALLET, 'eth', 1000)).map((r) => r.txn_hash);
    const first = (await pages(live, WALLET, 'eth', 1000)).map((r) => r.txn_hash);
    expect(first.length).toBeLessThan(want.length);
    expect(want.slice(want.length - first.length)).toEqual(first);
    live.sim.live!.settle(WALLET, eth);
    expect(live.sim.live!.truth(WALLET, eth).map((r) => r.txn_hash)).toEqual(want);
    expect((await pages(live, WALLET, 'eth', 1000)).map((r) => r.txn_hash)).toEqual(want);
  });
});
