import type { WritableDB } from '../../src/main/core/store/db.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { transaction as transactionSchema } from '../../src/shared/service/schemas.ts';
import type { CsvRequest } from '../../src/main/core/reports/csv-reports.ts';
import { saveRule, setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { applyRulesToAll } from '../../src/main/core/annotations/apply.ts';

/**
 * A cache holding every awkward value a transactions export must carry unchanged: text that
 * needs quoting, formula starts, control and direction characters, numbers String() would
 * write with an exponent, the extremes of a double, missing dates, fees and transfers, ties
 * in time, a removed wallet whose rows stay cached, and a label from an older cache that
 * would be refused today. test/reports/golden/ holds the bytes the export wrote for it
 * before the export was optimised (issue 16): the fast path must write the same bytes.
 */
export const AWKWARD_WALLETS = {
  quoted: '0x' + '1'.repeat(40),
  formula: '0x' + '2'.repeat(40),
  unlabelled: '0x' + '3'.repeat(40),
  legacy: '0x' + '4'.repeat(40),
  removed: '0x' + '5'.repeat(40),
} as const;

const TEXTS = [
  'swap',
  '=1+1',
  '+SUM(A1)',
  '-2',
  '@cmd',
  '\tlead-tab',
  '\rlead-cr',
  'a,b',
  'say "hi"',
  'two\nlines',
  'cr\rinside',
  'crlf\r\nend',
  'bidi\u202eevil',
  'nul\u0000x',
  'esc\u001b[31mred',
  'bom\ufeffin',
  'zwj\u200dkept',
  'emoji 😀 ok',
  'é accents ü',
  '',
  'del\u007fx',
  'c1\u0085x',
  ' leading space',
  'line\u2028sep',
  'isolate\u2066x\u2069',
  '"quoted start',
  "'apostrophe",
  '-',
  '=',
];

const NUMBERS: Array<number | string | null> = [
  0,
  -0,
  1,
  -5.5,
  1e-7,
  1.5e-7,
  0.000001,
  1e21,
  1.2345e25,
  -1e21,
  0.1 + 0.2,
  123456789.12345679,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  2 ** 53,
  '12.5',
  '1e-9',
  null,
  3052.85451,
];

const DATES: Array<string | null> = [
  '2025-01-01T00:00:00Z',
  '2025-01-01T00:00:00.123Z',
  '2025-01-01T00:00:00.999Z',
  null,
  '1969-12-31T23:59:59.999Z',
  '2025-06-30T23:59:59.999Z',
  '2025-07-01T00:00:00.001Z',
  '9999-12-31T23:59:59.999Z',
  '2024-02-29T12:34:56.789Z',
  '2025-01-01T00:00:00Z', // a tie in time: the id orders it
];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

/** The transactions of one (wallet, chain): each row mixes a different set of awkward values. */
function transactions(wallet: string, chain: string, count: number, seed: number): unknown[] {
  const rows: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const k = i + seed;
    const transfers: unknown[] = [];
    for (let j = 0; j < k % 4; j++) {
      transfers.push({
        token_cid: j === 1 ? null : `0x${(k * 7 + j).toString(16).padStart(40, 'c')}`,
        type: pick(['in', 'out', '=x', null, 'a,b'], k + j),
        qty: pick(NUMBERS, k * 3 + j),
        symbol: pick(['USDC', 'WETH', '=HYPERLINK("x")', null, 'two\nlines', 'bidi\u202eevil', 'é'], k + j),
        ...(j === 2 && { extra_member: 'kept in the JSON, not exported' }),
      });
    }
    rows.push({
      wallet_id: wallet,
      txn_hash: `0x${k.toString(16).padStart(64, k % 5 === 0 ? 'A' : 'b')}`,
      block: pick([k * 1000, null, 0, Number.MAX_SAFE_INTEGER], k),
      from: pick([wallet, `0x${'f'.repeat(40)}`, null, '0xABCDEF' + 'e'.repeat(34)], k),
      to: pick([`0x${'d'.repeat(40)}`, wallet, null], k),
      from_type: pick(TEXTS, k + 1),
      to_type: pick(TEXTS, k + 2),
      txn_fee: pick(NUMBERS, k),
      gas_fee: pick(NUMBERS, k + 7),
      action_type: pick(TEXTS, k),
      method_hex: pick(['0xa9059cbb', null, '=cmd', 'bidi\u202eevil'], k),
      protocol_id: pick(['uniswap', null, 'aave,v3', 'say "hi"', 'lido'], k),
      chain_id: chain,
      date: pick(DATES, k),
      details: transfers,
      status: pick([1, 0, null, 2], k),
    });
  }
  return rows;
}

/** Fills `db` with the awkward cache (deterministic: the same rows and ids every time). */
export function fillAwkwardCache(db: WritableDB): void {
  const w = AWKWARD_WALLETS;
  addWallet(db, { address: w.quoted, chains: ['eth', 'arb'], label: 'Treasury, "main"' }, new Date(0));
  addWallet(db, { address: w.formula, chains: ['eth'], label: '=HYPERLINK("http://evil.example","x")' }, new Date(0));
  addWallet(db, { address: w.unlabelled, chains: ['eth'] }, new Date(0));
  addWallet(db, { address: w.legacy, chains: ['eth'], label: 'legacy' }, new Date(0));
  addWallet(db, { address: w.removed, chains: ['eth'], label: 'gone' }, new Date(0));
  // A label an older version accepted and today's refuses: the export still neutralises it.
  db.prepare('UPDATE wallets SET label = ? WHERE address = ?').run('old\u202elabel\nline\u0007', w.legacy);
  let seed = 0;
  for (const [wallet, chain, count] of [
    [w.quoted, 'eth', 60],
    [w.quoted, 'arb', 40],
    [w.formula, 'eth', 30],
    [w.unlabelled, 'eth', 20],
    [w.legacy, 'eth', 20],
    [w.removed, 'eth', 10],
  ] as const) {
    const rows = transactions(wallet, chain, count, seed).map((r) => transactionSchema.parse(r));
    db.transaction(() => upsertTransactions(db, wallet, chain, rows)).immediate();
    seed += count;
  }
  // Details written by an older version, as stored text: a quantity as a string, a member
  // missing, a symbol that is a number. The export writes what is there.
  db.prepare('UPDATE transactions SET details = ? WHERE id = 3').run(JSON.stringify([{ type: 'in', qty: '7.25', symbol: 42 }, { qty: 1e-8 }]));
  removeWallet(db, w.removed); // its rows stay cached, and no export lists them
  // Categories and notes (issue 28): a rule's on the swaps, a manual choice with a note a
  // spreadsheet would take for a formula, across lines and with quotes, and a note alone.
  saveRule(db, { category: 'Swap', conditions: { actionTypes: ['swap'] } }, new Date(0));
  applyRulesToAll(db);
  const [first, second] = db.prepare('SELECT wallet, chain, txn_hash AS txnHash FROM transactions ORDER BY id LIMIT 2').all() as Array<{
    wallet: string;
    chain: string;
    txnHash: string;
  }>;
  setAnnotation(db, first!, { category: 'Payroll', note: '=SUM(A1), "paid"\nsecond line' }, { now: new Date(0) });
  setAnnotation(db, second!, { note: 'only a note' }, { now: new Date(0) });
}

/** The exports compared byte for byte: every filter of the timeline, alone and combined. */
export const AWKWARD_REQUESTS: Record<string, CsvRequest> = {
  all: { report: 'transactions' },
  'one-wallet': { report: 'transactions', wallet: AWKWARD_WALLETS.quoted },
  period: { report: 'transactions', from: '2025-01-01', to: '2025-06-30' },
  filters: { report: 'transactions', filter: { chains: ['eth'], actionTypes: ['swap', '=1+1', 'a,b'], statuses: [1, 0] } },
  tokens: { report: 'transactions', filter: { tokens: ['USDC', '=HYPERLINK("x")'], protocols: ['uniswap', 'aave,v3'] } },
  'search-address': { report: 'transactions', filter: { search: `0x${'d'.repeat(40)}` } },
  'search-prefix': { report: 'transactions', wallet: AWKWARD_WALLETS.formula, filter: { search: '0xbbbbbbbbbb' } },
  empty: { report: 'transactions', from: '2030-01-01', to: '2030-12-31' },
  categories: { report: 'transactions', filter: { categories: ['swap', 'Payroll'] } },
  uncategorised: { report: 'transactions', wallet: AWKWARD_WALLETS.formula, filter: { uncategorised: true } },
};
