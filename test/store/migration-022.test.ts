import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion22 } from '../../src/main/core/store/migrations/022-snapshot-contents.ts';
import { createDB, updateToVersion } from '../support/store.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('migration 022: each snapshot keeps the hash of its content (the body without its request id)', () => {
  it('fills every row from its body and request id: two answers differing only in their id share it, a row without an id hashes its body', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion22);
    expect(index).toBeGreaterThan(20);
    const db = createDB({ version: index });
    const body = (id: string, nav: number) => `{"status":"OK","data":[{"total":${nav}}],"message":"Get Positions (ID: ${id}) succeed."}`;
    const insert = db.prepare(
      `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, request_id, fetched_at, sha256, raw, data, position_count)
       VALUES ('allPositions', '0xa', 'eth', '2026-10-31', '2026-10-31', ?, '2026-11-01T00:00:00.000Z', ?, ?, '[]', 0)`,
    );
    for (const [id, nav] of [
      ['aaaa1111', 5],
      ['bbbb2222', 5],
      ['cccc3333', 6],
      [null, 5],
    ] as const) {
      const raw = body(id ?? 'none', nav);
      insert.run(id, sha(raw), raw);
    }
    updateToVersion(db, SCHEMA_VERSION);
    const rows = db.prepare('SELECT request_id, sha256, content_sha256 FROM snapshots ORDER BY id').all() as Array<{
      request_id: string | null;
      sha256: string;
      content_sha256: string;
    }>;
    expect(rows[0]!.sha256).not.toBe(rows[1]!.sha256);
    expect(rows[0]!.content_sha256).toBe(rows[1]!.content_sha256);
    expect(rows[0]!.content_sha256).toBe(sha(body('', 5)));
    expect(rows[2]!.content_sha256).not.toBe(rows[0]!.content_sha256);
    expect(rows[3]!.content_sha256).toBe(rows[3]!.sha256);
    // Immutable again.
    expect(() => db.prepare("UPDATE snapshots SET content_sha256 = 'x'").run()).toThrow(/snapshots are immutable/);
  });
});
