import { describe, expect, it } from 'vitest';
import { getSettings, updateSettings } from '../../src/main/core/store/settings.ts';
import { addWallet, getWallet, listWallets, updateWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { ValidationError } from '../../src/main/core/store/validation.ts';
import { createDB } from '../support/store.ts';

const A = '0x5A0b54D5dc17e0AadC383d2db43B0a0D3E029c4c';

describe('watched wallets', () => {
  it('adds a wallet with label, tags and chains, canonicalising the address', () => {
    const db = createDB();
    const w = addWallet(db, { address: A, chains: ['eth', 'arb', 'eth'], label: ' Treasury ', tags: ['ops', 'ops', ' cold '] });
    expect(w).toMatchObject({ address: A.toLowerCase(), label: 'Treasury', tags: ['ops', 'cold'], chains: ['eth', 'arb'] });
    expect(getWallet(db, A)).toEqual(w);
    expect(listWallets(db)).toEqual([w]);
  });

  it.each([
    ['', 'Enter a wallet address'],
    [' 0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', 'spaces'],
    ['0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c\n', 'spaces'],
    ['0x' + 'a'.repeat(200), 'too long'],
    ['0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4ç', 'printable'],
    ['0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4', 'expected 0x followed by 40'],
    ['5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', 'expected 0x followed by 40'],
    ['0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029cZZ', 'expected 0x followed by 40'],
  ])('rejects %j with a clear error and changes nothing', (address, message) => {
    const db = createDB();
    expect(() => addWallet(db, { address, chains: ['eth'] })).toThrow(message);
    expect(listWallets(db)).toEqual([]);
  });

  it('accepts non-EVM addresses on non-EVM chains, and rejects no chain or a duplicate', () => {
    const db = createDB();
    expect(addWallet(db, { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', chains: ['btc'] }).address).toBe(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
    expect(() => addWallet(db, { address: A, chains: [] })).toThrow(ValidationError);
    addWallet(db, { address: A, chains: ['eth'], label: 'Main' });
    expect(() => addWallet(db, { address: A.toLowerCase(), chains: ['eth'] })).toThrow('already watched as "Main"');
  });

  it('edits label, tags and chains; removing keeps the cache unless asked to purge', () => {
    const db = createDB();
    addWallet(db, { address: A, chains: ['eth'] });
    expect(updateWallet(db, A, { label: 'New', tags: ['x'], chains: ['eth', 'op'] })).toMatchObject({ label: 'New', tags: ['x'], chains: ['eth', 'op'] });
    expect(() => updateWallet(db, A, { chains: [] })).toThrow('at least one chain');
    db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, details) VALUES (?, 'eth', '0x1', 1, '[]')").run(A.toLowerCase());
    expect(removeWallet(db, A)).toBe(true);
    expect(getWallet(db, A)).toBeNull();
    expect(db.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 1 });
    addWallet(db, { address: A, chains: ['eth'] });
    removeWallet(db, A, { purge: true });
    expect(db.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 0 });
  });
});

describe('settings', () => {
  it('has defaults, saves changes, and has no place for the access key', () => {
    const db = createDB();
    expect(getSettings(db).chains).toContain('eth');
    updateSettings(db, { baseUrl: 'https://api.example.org', chains: ['eth'] });
    expect(getSettings(db)).toMatchObject({ baseUrl: 'https://api.example.org', chains: ['eth'] });
    expect(() => updateSettings(db, { accessKey: 'secret' } as never)).toThrow();
    expect(() => updateSettings(db, { baseUrl: 'not a url' })).toThrow();
    expect(JSON.stringify(db.prepare('SELECT * FROM settings').all())).not.toContain('secret');
  });
});
