import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { expect, it } from 'vitest';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * A cache moved or deleted while the app has it open: SQLite would go on writing to the file
 * it holds, and all of it would be lost when the app closes. A sync refuses, says why and what
 * to do, and writes nothing, neither there nor in a new file at the old path.
 */
const ctx = useSimulator({ txnsPerWallet: 300 });

it('a deleted cache: syncs refuse with a message that says what to do, and no new cache is made', async () => {
  const db = createDB();
  const path = db.name;
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const { engine } = engineFor(ctx.sim, db);
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  await expect(engine.syncTransactions(WALLET).result).rejects.toThrow(/moved or deleted while Folioscope was running.*Restart Folioscope/);
  await expect(engine.syncPositions(WALLET).result).rejects.toThrow(/moved or deleted/);
  expect(existsSync(path)).toBe(false);
  expect(countTransactions(db)).toBe(0);
});

it('a moved cache: the moved file is left as it was, and syncs go on once it is back', async () => {
  const db = createDB();
  const path = db.name;
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

it('the app refuses changes to a cache moved or deleted while it runs, and says what to do', async () => {
  const dataDir = tempDir();
  const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, demo: demoStarter({ txnsPerWallet: 50 }) });
  try {
    await core.request('wallets.add', { address: WALLET, chains: ['eth'] });
    const file = (await core.request('app.info', undefined)).databaseFile;
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    await expect(core.request('wallets.add', { address: WALLET_2, chains: ['eth'] })).rejects.toThrow(/moved or deleted.*Restart Folioscope/);
    await expect(core.request('groups.save', { name: 'Fund', wallets: [WALLET] })).rejects.toThrow(/moved or deleted/);
    await expect(core.request('sync.transactions', { wallet: WALLET })).rejects.toThrow(/moved or deleted/);
    expect(existsSync(file)).toBe(false);
    // Reading what is open still works (the views keep showing what was cached).
    expect((await core.request('wallets.list', undefined)).map((w) => w.address)).toEqual([WALLET]);
  } finally {
    await core.close();
  }
});
