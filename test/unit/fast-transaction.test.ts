import { describe, expect, it } from 'vitest';
import { fastTransaction } from '../../src/shared/service/fast-transaction.ts';
import { transaction, transactionHistory } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { drift } from '../../src/sim/drift.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';

const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const h = historyOf({ seed: 5, txnsPerWallet: 2000, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 }, WALLET, CHAINS[0]!);
const rows = Array.from({ length: 2000 }, (_, i) => JSON.parse(JSON.stringify(transactionAt(h, i))) as Record<string, unknown>);

/** The history schema's rows (fast path or schema) against the schema applied alone. */
function bothWays(input: unknown[]) {
  const viaHistory = transactionHistory.safeParse({ transaction_history: input, start_block: 1, end_block: 2, completion_ratio: 1 });
  const viaSchema = input.map((r) => transaction.safeParse(r));
  return { viaHistory, viaSchema };
}

/**
 * Same members and values; members the spec does not list in the same order (the store keeps
 * them as JSON in that order). Listed members missing from the input may come in another order.
 */
function same(fast: readonly unknown[], schema: readonly unknown[]) {
  expect(fast).toEqual(schema);
  const listed = new Set(Object.keys(transaction.shape));
  const unlisted = (r: unknown) => Object.keys(r as object).filter((k) => !listed.has(k));
  expect(fast.map(unlisted)).toEqual(schema.map(unlisted));
}

describe('the hand-applied transaction schema (the sync fast path)', () => {
  it('takes the rows the simulator sends as they are, and gives exactly what the schema gives', () => {
    expect(rows.every((r) => fastTransaction(r) !== undefined)).toBe(true);
    const { viaHistory, viaSchema } = bothWays(rows);
    expect(viaHistory.success).toBe(true);
    // Same members, same values, same order of members (the extra JSON is built from it).
    expect(JSON.stringify(viaHistory.data!.transaction_history)).toBe(JSON.stringify(viaSchema.map((r) => r.data)));
  });

  it('gives what the schema gives under every drift the simulator plays (strings for numbers, other datetimes, missing and unknown members)', () => {
    for (let request = 0; request < 40; request++) {
      const drifted = drift(rows.slice(request * 50, request * 50 + 50), 11, request) as unknown[];
      const { viaHistory, viaSchema } = bothWays(drifted);
      expect(viaHistory.success).toBe(true);
      same(
        viaHistory.data!.transaction_history,
        viaSchema.map((r) => r.data),
      );
    }
  });

  it("leaves to the schema what it does not accept, so the error and its path are the schema's", () => {
    const base = rows[0]!;
    const bad: Array<[string, Record<string, unknown>]> = [
      ['no hash', { ...base, txn_hash: undefined }],
      ['empty hash', { ...base, txn_hash: '' }],
      ['a fee that is text', { ...base, txn_fee: 'lots' }],
      ['a block that is not an integer', { ...base, block: 1.5 }],
      ['an impossible date', { ...base, date: '2025-13-45T00:00:00Z' }],
      ['details that are not a list', { ...base, details: 'none' }],
      ['a transfer with a quantity that is text', { ...base, details: [{ symbol: 'ETH', qty: 'some' }] }],
      ['an address that is a number', { ...base, from: 42 }],
    ];
    for (const [what, row] of bad) {
      expect(fastTransaction(row), what).toBeUndefined();
      const { viaHistory, viaSchema } = bothWays([base, row]);
      expect(viaSchema[1]!.success, what).toBe(false);
      expect(viaHistory.success, what).toBe(false);
      const issue = viaHistory.error!.issues[0]!;
      const expected = viaSchema[1]!.error!.issues[0]!;
      expect(issue.message, what).toBe(expected.message);
      expect(issue.path, what).toEqual(['transaction_history', 1, ...expected.path]);
    }
  });

  it('accepts what the schema accepts beyond the common shape: null details, numeric strings, missing descriptive members', () => {
    const base = rows[1]!;
    const variants = [
      { ...base, details: null },
      { ...base, txn_fee: '0.0012', gas_fee: null, status: '1', block: String(base['block']) },
      (({ from_type: _a, to_type: _b, method_hex: _c, ...rest }) => rest)(base),
      { ...base, date: 1735689600 },
      { ...base, x_new_member: { nested: true } },
    ];
    const { viaHistory, viaSchema } = bothWays(variants);
    expect(viaSchema.every((r) => r.success)).toBe(true);
    same(
      viaHistory.data!.transaction_history,
      viaSchema.map((r) => r.data),
    );
  });
});
