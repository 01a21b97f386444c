import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { countTransactions } from '../../src/main/core/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { tempDb } from '../support/store.ts';

/**
 * A cache moved or deleted while the app has it open: SQLite would go on writing to the file
 * it holds, and all of it would be lost when the app closes. A sync refuses, says why and what
 * to do, and writes nothing, neither there nor in a new file at the old path.
 */
const ctx = useSimulator({ txnsPerWallet: 300 });

it('a deleted cache: syncs refuse with a message that says what to do, and no new cache is made', async () => {
  const { db, path } = tempDb();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const { engine } = engineFor(ctx.sim, db);
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  await expect(engine.syncTransactions(WALLET).result).rejects.toThrow(/moved or deleted while Folioscope was running.*Restart Folioscope/);
  await expect(engine.syncPositions(WALLET).result).rejects.toThrow(/moved or deleted/);
  expect(existsSync(path)).toBe(false);
  expect(countTransactions(db)).toBe(0);
});

it('a moved cache: the moved file is left as it was, and syncs go on once it is back', async () => {
  const { db, path } = tempDb();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const { engine } = engineFor(ctx.sim, db);
  db.pragma('wal_checkpoint(TRUNCATE)');
  renameSync(path, `${path}.moved`);
  const size = statSync(`${path}.moved`).size;
  await expect(engine.syncTransactions(WALLET).result).rejects.toThrow(/moved or deleted/);
  expect(statSync(`${path}.moved`).size).toBe(size);
  expect(countTransactions(db)).toBe(0);
  renameSync(`${path}.moved`, path);
  await engine.syncTransactions(WALLET).result;
  expect(countTransactions(db)).toBe(300);
});
