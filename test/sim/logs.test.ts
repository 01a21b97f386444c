import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { decodeLog, EVENTS } from '../../src/shared/signatures.ts';
import { chainById } from '../../src/sim/chains.ts';
import { onChain, TOKENS } from '../../src/sim/catalog.ts';
import { logsOfTransaction, TOPIC } from '../../src/sim/logs.ts';
import { defaultHistory, historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

/**
 * The reference service's event logs follow from each transaction and use the standard layouts,
 * so the app's decoder reads every one; checked against keccak-256 of the signatures, not
 * against the decoder's own table (a wrong entry on either side fails here).
 */
const SEED = 7;
const TXNS = 1500;
const ctx = useSimulator({ txnsPerWallet: TXNS });
const topicOf = (signature: string) => '0x' + bytesToHex(keccak_256(new TextEncoder().encode(signature)));

const SIGNATURES: Record<keyof typeof TOPIC, string> = {
  transfer: 'Transfer(address,address,uint256)',
  approval: 'Approval(address,address,uint256)',
  swapV2: 'Swap(address,uint256,uint256,uint256,uint256,address)',
  sync: 'Sync(uint112,uint112)',
  swapV3: 'Swap(address,address,int256,int256,uint160,uint128,int24)',
  deposit: 'Deposit(address,uint256)',
  withdrawal: 'Withdrawal(address,uint256)',
};

describe('reference service: event logs', () => {
  it('uses the keccak-256 topics of the standard signatures, and the decoder knows each', () => {
    for (const [name, signature] of Object.entries(SIGNATURES)) {
      expect(TOPIC[name as keyof typeof TOPIC], signature).toBe(topicOf(signature));
      expect(EVENTS[topicOf(signature)]?.name, signature).toBe(signature.slice(0, signature.indexOf('(')));
    }
  });

  it('gives every successful transaction the logs its transfers and action imply, all decodable', () => {
    const actions = new Set<string>();
    let transfers = 0;
    for (const chainId of ['eth', 'arb']) {
      const chain = chainById(chainId)!;
      const byAddress = new Map(Object.keys(TOKENS).map((k) => [onChain(k, chain).address, onChain(k, chain)]));
      const h = historyOf(defaultHistory(SEED, TXNS), WALLET, chain);
      for (let i = 0; i < TXNS; i++) {
        const t = transactionAt(h, i);
        const logs = logsOfTransaction(SEED, t);
        expect(logs.map((l) => l.log_index)).toEqual(logs.map((_, j) => j));
        // A reverted transaction emits nothing.
        if (t.status !== 1) {
          expect(logs).toEqual([]);
          continue;
        }
        const decoded = logs.map((l) => decodeLog(l.topics, l.data));
        expect(decoded.every((d) => d !== null)).toBe(true);
        actions.add(t.action_type!);
        // Every ERC-20 transfer of the details has its Transfer log: from and to the wallet, the
        // amount in the token's decimals.
        for (const d of t.details) {
          const tok = byAddress.get(d.token_cid)!;
          if (tok.key === 'NATIVE') continue;
          const value = (BigInt(Math.round(d.qty * 1e6)) * 10n ** BigInt(tok.decimals)) / 10n ** 6n;
          const match = decoded.find(
            (x) =>
              x!.name === 'Transfer' &&
              x!.args[2]!.value === value.toString() &&
              (d.type === 'in' ? x!.args[1]!.value === WALLET : x!.args[0]!.value === WALLET || t.action_type === 'swap'),
          );
          expect(match, `${t.txn_hash} ${t.action_type} ${d.type} ${d.qty} ${d.symbol}`).toBeDefined();
          transfers++;
        }
        if (t.action_type === 'approve') expect(decoded[0]).toMatchObject({ name: 'Approval', args: [{ value: WALLET }, { value: t.to }, {}] });
        if (t.action_type === 'swap' && new Set(t.details.map((d) => byAddress.get(d.token_cid)!.key.replace('NATIVE', 'WETH'))).size === 2)
          expect(decoded.some((d) => d!.name === 'Swap')).toBe(true);
      }
    }
    expect(transfers).toBeGreaterThan(1000);
    expect(actions.size).toBe(11);
  });

  it('serves them through the endpoint, paged, with the total of logs', async () => {
    const h = historyOf(defaultHistory(SEED, TXNS), WALLET, chainById('eth')!);
    const txns = Array.from({ length: TXNS }, (_, i) => transactionAt(h, i));
    const many = txns.find((t) => logsOfTransaction(SEED, t).length >= 120)!;
    const swap = txns.find((t) => t.action_type === 'swap' && t.status === 1)!;
    for (const t of [many, swap]) {
      const expected = logsOfTransaction(SEED, t);
      const got: unknown[] = [];
      for (let page = 1; got.length < expected.length; page++) {
        const { json } = await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: t.txn_hash, chain_id: 'eth', page: String(page), pageSize: '50' });
        expect(json.total).toBe(expected.length);
        expect(json.data[0].logs.length).toBeGreaterThan(0);
        got.push(...json.data[0].logs);
      }
      expect(got).toEqual(expected);
    }
  });
});
