import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import {
  conformance,
  LIQUIDITY_DETAILS,
  LIQUIDITY_SNAPSHOT,
  POSITION_SNAPSHOT,
  TRANSACTION_HISTORY,
  TRANSACTION_LOGS,
  UNDERLYING_DETAILS,
  UNDERLYING_SNAPSHOT,
} from '../support/spec-tables.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

const ctx = useSimulator();
const positionsParams = { wallet: WALLET, chains: 'eth', date: '2025-03-14' };

/** Dates across two years, so positions of every asset type have opened at least once. */
const DATES = ['2024-02-01', '2024-09-15', '2025-03-14', '2025-10-01', '2026-06-30', '2026-11-20'];

describe('reference service: spec conformance', () => {
  it('all_positions: path v2, envelope, message text and every field typed as the spec tables', async () => {
    const { status, json } = await ctx.get(ENDPOINTS.allPositions.path, positionsParams);
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['data', 'message', 'status']);
    expect(json.status).toBe('OK');
    expect(json.message).toMatch(/^Get Positions \(ID: [^)]+\) succeed\.$/);
    expect(json.data).toHaveLength(1);
    expect(conformance(json.data[0], POSITION_SNAPSHOT)).toEqual([]);
    expect(json.data[0].positions.length).toBeGreaterThan(2);
  });

  it('positions_by_underlying: path v1, its own message, and the grouped shape', async () => {
    expect(ENDPOINTS.positionsByUnderlying.path).toBe('/v1/portfolio/positions_by_underlying');
    const { json } = await ctx.get(ENDPOINTS.positionsByUnderlying.path, positionsParams);
    expect(json.message).toMatch(/^Get positions by underlying \(ID: [^)]+\) succeed\.$/);
    expect(conformance(json.data[0], UNDERLYING_SNAPSHOT)).toEqual([]);
  });

  it('port_liq_analysis: the message keeps the spelling "liqudity", and liquidity fields conform', async () => {
    expect(ENDPOINTS.liquidityAnalysis.path).toBe('/v1/portfolio/port_liq_analysis');
    const { json } = await ctx.get(ENDPOINTS.liquidityAnalysis.path, positionsParams);
    expect(json.message).toMatch(/^Get portfolio liqudity analysis \(ID: [^)]+\) succeed\.$/);
    expect(conformance(json.data[0], LIQUIDITY_SNAPSHOT)).toEqual([]);
  });

  it('txn_by_wallet: path v3, history object with blocks and completion ratio', async () => {
    expect(ENDPOINTS.transactionsByWallet.path).toBe('/v3/transactions/txn_by_wallet');
    const { json } = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', page: '1', pageSize: '50' });
    expect(json.message).toMatch(/^Get transaction history \(ID: [^)]+\) succeed\.$/);
    expect(Object.keys(json).sort()).toEqual(['data', 'message', 'status']);
    expect(conformance(json.data[0], TRANSACTION_HISTORY)).toEqual([]);
    expect(json.data[0].transaction_history).toHaveLength(50);
  });

  it('logs_by_txn_hash: path v3, chain_id parameter, the extra integer total', async () => {
    const txns = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', pageSize: '5' });
    const hash = txns.json.data[0].transaction_history[0].txn_hash;
    const { json } = await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: hash, chain_id: 'eth' });
    expect(ENDPOINTS.logsByTxnHash.path).toBe('/v3/transactions/logs_by_txn_hash');
    expect(Object.keys(json).sort()).toEqual(['data', 'message', 'status', 'total']);
    expect(json.message).toMatch(/^Get logs \(ID: [^)]+\) succeed\.$/);
    expect(Number.isInteger(json.total)).toBe(true);
    expect(conformance(json.data[0], TRANSACTION_LOGS)).toEqual([]);
  });

  it('uses every details member the spec lists, across asset types and dates', async () => {
    const seenAll = new Set<string>();
    const seenLiq = new Set<string>();
    const assetTypes = new Set<string>();
    for (const date of DATES) {
      for (const wallet of [WALLET, '0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222']) {
        const all = await ctx.get(ENDPOINTS.allPositions.path, { wallet, chains: 'eth', date });
        const liq = await ctx.get(ENDPOINTS.liquidityAnalysis.path, { wallet, chains: 'eth', date });
        for (const p of all.json.data[0].positions) {
          assetTypes.add(p.asset_type);
          for (const u of p.underlying) Object.keys(u.details).forEach((k) => seenAll.add(k));
        }
        for (const p of liq.json.data[0].positions) for (const u of p.underlying) Object.keys(u.details).forEach((k) => seenLiq.add(k));
      }
    }
    expect([...seenAll].sort()).toEqual(Object.keys(UNDERLYING_DETAILS).sort());
    expect([...seenLiq].sort()).toEqual(Object.keys(LIQUIDITY_DETAILS).sort());
    expect(assetTypes.size).toBeGreaterThanOrEqual(5);
  });
});

describe('reference service: authentication and parameters', () => {
  it('answers 401 with a JSON error body when the key is missing or wrong', async () => {
    const url = new URL(ctx.sim.url + ENDPOINTS.allPositions.path);
    url.searchParams.set('wallet', WALLET);
    url.searchParams.set('chains', 'eth');
    const missing = await fetch(url);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ status: 'ERROR', message: 'Missing access_key' });
    const wrong = await ctx.get(ENDPOINTS.allPositions.path, { ...positionsParams, access_key: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.message).toBe('Invalid access_key');
  });

  it.each([
    ['allPositions', { wallet: WALLET, chains: 'eth', date: '2025-02-30' }, 'date'],
    ['allPositions', { wallet: WALLET, chains: 'eth', date: '2031-01-01' }, 'date'],
    ['allPositions', { wallet: WALLET, chains: 'eth', date: '14/03/2025' }, 'date'],
    ['allPositions', { wallet: WALLET, chains: 'solana' }, 'chains'],
    ['positionsByUnderlying', { wallet: '0x123', chains: 'eth' }, 'wallet'],
    ['positionsByUnderlying', { chains: 'eth' }, 'wallet'],
    ['liquidityAnalysis', { wallet: WALLET, chains: 'eth', asset_type: 'nft' }, 'asset_type'],
    ['transactionsByWallet', { wallet: WALLET, chains: 'eth', page: 'two' }, 'page'],
    ['transactionsByWallet', { wallet: WALLET, chains: 'eth', pageSize: '5000' }, 'pageSize'],
    ['transactionsByWallet', { wallet: WALLET, chains: 'eth', start_time: '2025-01-01' }, 'start_time'],
    ['logsByTxnHash', { txn_hash: '0xabc', chain_id: 'eth' }, 'txn_hash'],
    ['logsByTxnHash', { txn_hash: '0x' + 'a'.repeat(64), chains: 'eth' }, 'chain_id'],
  ] as const)('%s with %o: 400 naming %s', async (endpoint, params, parameter) => {
    const { status, json } = await ctx.get(ENDPOINTS[endpoint].path, params);
    expect(status).toBe(400);
    expect(json.parameter).toBe(parameter);
    expect(json.message).toContain(`'${parameter}'`);
  });

  it('answers 404 for a path that is not an operation', async () => {
    const { status } = await ctx.get('/v9/portfolio/all_positions');
    expect(status).toBe(404);
  });
});
