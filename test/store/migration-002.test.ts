import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { getLogSet, saveLogSet } from '../../src/main/core/transactions/store/logs.ts';
import { listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 2: service conventions, anomalies, range reasons, logs by position', () => {
  it('keeps version-1 logs and ranges, and stores logs whose log_index repeats without overwriting', () => {
    const db = createDB({ version: 1 });
    db.prepare("INSERT INTO txn_log_sets (chain, txn_hash, total, fetched_at) VALUES ('eth', '0xabc', 2, 't')").run();
    db.prepare(
      "INSERT INTO txn_logs (chain, txn_hash, log_index, topics, data) VALUES ('eth', '0xabc', 0, '[]', '0x00'), ('eth', '0xabc', 1, '[\"0xt\"]', '0x01')",
    ).run();
    db.prepare(
      "INSERT INTO txn_sync_ranges (wallet, chain, start_time, end_time, state, page_size, updated_at) VALUES ('0xw', 'eth', 0, 10, 'complete', 100, 't')",
    ).run();

    updateToVersion(db, 2);
    expect(schemaVersion(db)).toBe(2);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['service_conventions', 'service_anomalies', 'txn_logs']));
    const kept = getLogSet(db, 'eth', '0xabc')!;
    expect(kept.logs).toEqual([
      { log_index: 0, topics: [], data: '0x00' },
      { log_index: 1, topics: ['0xt'], data: '0x01' },
    ]);
    expect(kept.complete).toBe(true);
    expect(listRanges(db, '0xw', 'eth')).toEqual([expect.objectContaining({ state: 'complete', reason: null })]);

    // log_index restarting per page: four logs, two of each index, all stored in read order.
    const logs = [0, 1, 0, 1].map((i, n) => ({ log_index: i, topics: [], data: `0x0${n}` }));
    saveLogSet(db, { chain: 'eth', txnHash: '0xdef', total: 4, header: null, logs, requestId: null, fetchedAt: 't', complete: true, note: null });
    expect(getLogSet(db, 'eth', '0xdef')!.logs.map((l) => l.data)).toEqual(['0x00', '0x01', '0x02', '0x03']);
  });
});
