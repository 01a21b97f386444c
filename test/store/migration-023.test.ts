import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion23 } from '../../src/main/core/store/migrations/023-spam.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 023: spam verdicts and lists', () => {
  it('adds the tables to a database of the previous version, keeping its data; one verdict per (kind, chain, target, wallet)', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion23);
    expect(index).toBe(22);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO counterparties (address, name, created_at, updated_at) VALUES ('0xb', 'Grantee X', 'now', 'now')").run();
    updateToVersion(db, index + 1);
    expect(schemaVersion(db)).toBe(index + 1);
    expect(db.prepare('SELECT count(*) AS n FROM counterparties').get()).toEqual({ n: 1 });
    const mark = db.prepare(
      "INSERT INTO spam_verdicts (kind, chain, target, wallet, verdict, created_at, updated_at) VALUES (?, ?, '0xt', ?, ?, 'now', 'now')",
    );
    mark.run('token', 'eth', '', 'spam');
    // Every wallet's and one wallet's are two verdicts; the same twice is refused.
    mark.run('token', 'eth', '0xw', 'not-spam');
    expect(() => mark.run('token', 'eth', '', 'not-spam')).toThrow(/UNIQUE/);
    // A token has a chain, a contract or an address none; verdicts and kinds are the listed ones.
    expect(() => mark.run('token', '', '', 'spam')).toThrow(/CHECK/);
    expect(() => mark.run('contract', 'eth', '', 'spam')).toThrow(/CHECK/);
    expect(() => mark.run('address', '', '', 'maybe')).toThrow(/CHECK/);
    expect(() => mark.run('wallet', '', '', 'spam')).toThrow(/CHECK/);
    mark.run('address', '', '', 'spam');
    expect(db.prepare('SELECT kind, chain, wallet, verdict, note FROM spam_verdicts ORDER BY id').all()).toEqual([
      { kind: 'token', chain: 'eth', wallet: '', verdict: 'spam', note: '' },
      { kind: 'token', chain: 'eth', wallet: '0xw', verdict: 'not-spam', note: '' },
      { kind: 'address', chain: '', wallet: '', verdict: 'spam', note: '' },
    ]);
    db.prepare("INSERT INTO spam_lists (name, imported_at, sha256, list, tokens, addresses, patterns) VALUES ('mine', 'now', 'h', '{}', 1, 0, 0)").run();
    expect(() =>
      db.prepare("INSERT INTO spam_lists (name, imported_at, sha256, list, tokens, addresses, patterns) VALUES ('mine', 'now', 'h', '{}', 1, 0, 0)").run(),
    ).toThrow(/UNIQUE|PRIMARY/);
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM spam_verdicts').get()).toEqual({ n: 3 });
  });
});
