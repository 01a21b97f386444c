import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion25 } from '../../src/main/core/store/migrations/025-party-dealings.ts';
import { dealingsDirect, dealingsOf } from '../../src/main/core/transactions/store/party-dealings.ts';
import { refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { createDB, updateToVersion } from '../support/store.ts';

const W = '0x' + '1'.repeat(40);
const C = '0x' + 'c'.repeat(40);

describe('migration 025: the dealings kept beside the daily sums', () => {
  it('adds the table to a cache of the previous version; its rows read from the transactions until a writer keeps them, and the same after', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion25);
    expect(index).toBe(24);
    const db = createDB({ version: index });
    const insert = db.prepare(
      "INSERT INTO transactions (wallet, chain, txn_hash, time, from_addr, to_addr, status, details) VALUES (?, 'eth', ?, ?, ?, ?, 1, ?)",
    );
    insert.run(W, '0x01', 1000, W, C, JSON.stringify([{ token_cid: '0xt', type: 'out', qty: 2, symbol: 'T' }]));
    insert.run(W, '0x02', 2000, C, W, JSON.stringify([{ token_cid: '0xt', type: 'in', qty: '5', symbol: 'T' }]));
    // A cache of version 24 with its daily sums current: their watermark covers rows the new table does not hold yet.
    db.prepare("INSERT INTO transfer_days_state (wallet, chain, built_to_id) VALUES (?, 'eth', 2)").run(W);
    updateToVersion(db, index + 1);
    expect(schemaVersion(db)).toBe(index + 1);
    expect(db.prepare('SELECT count(*) FROM party_dealings').pluck().get()).toBe(0);
    // The sums' watermark, made before the table, covered no dealings: dropped with the migration.
    expect(db.prepare('SELECT count(*) FROM transfer_days_state').pluck().get()).toBe(0);
    const direct = dealingsDirect(db, W);
    expect(direct.recipients).toEqual([{ chain: 'eth', address: C, first: 1000 }]);
    // A quantity sent as text is read as SQLite's ->> reads it: text, kept as text.
    expect(direct.senders).toEqual([{ chain: 'eth', address: C, cid: '0xt', symbol: 'T', maxQty: '5', first: 2000 }]);
    expect(dealingsOf(db, W)).toEqual(direct);
    // The next refresh keeps them, and reads the same.
    refreshTransferDays(db, [{ wallet: W, chain: 'eth' }]);
    expect(db.prepare('SELECT count(*) FROM party_dealings').pluck().get()).toBe(2);
    expect(dealingsOf(db, W)).toEqual(direct);
    // A row restated with another recipient (its transfers the same): the watermark goes, the read follows the row.
    const D = '0x' + 'd'.repeat(40);
    db.prepare("UPDATE transactions SET to_addr = ? WHERE txn_hash = '0x01'").run(D);
    expect(db.prepare('SELECT count(*) FROM transfer_days_state').pluck().get()).toBe(0);
    expect(dealingsOf(db, W).recipients).toEqual([{ chain: 'eth', address: D, first: 1000 }]);
    expect(dealingsOf(db, W)).toEqual(dealingsDirect(db, W));
    refreshTransferDays(db, [{ wallet: W, chain: 'eth' }]);
    expect(dealingsOf(db, W)).toEqual(dealingsDirect(db, W));
  });
});
