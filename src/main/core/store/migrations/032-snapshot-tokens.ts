import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 32: each by-underlying snapshot's tokens as rows (`snapshot_tokens`, owned by
 * core/positions), written by a trigger as the snapshot is, and gone with it.
 *
 * What the spam judge asks of a wallet's tokens (held since when, at what price: positions/store/
 * tokens.ts) and what the monthly pack prices its transfers with (each member's tokens at each
 * date of the month) were read by parsing the whole body of every snapshot again, each time: at
 * 1,000 wallets × 6 chains a pack spent a quarter of its time there (bench/RESULTS.md). A token
 * row is what those reads keep of a body, read by index.
 *
 * A row keeps a token as the body gave it, so a read of it adds nothing and loses nothing: its
 * quantity and value as the body's own number text (`->`: parsed by the reader as the body would
 * be, never rounded by a conversion in SQLite), and the price per unit the judge averages, as
 * its query computed it from the body before this table existed. A trigger, not the writer,
 * fills it: a row of snapshots written by any path (a sync, a restore, a test) has its tokens.
 */
export function updateToSchemaVersion32(db: Database): void {
  // One position group of the by-underlying view per row, in the body's order (rowid follows it).
  const tokensOf = (snapshot: string, from = '', where = '') => `
    SELECT ${snapshot}.id, ${snapshot}.wallet, ${snapshot}.chain, ${snapshot}.as_of,
           g.value ->> 'token_id', g.value ->> 'token_cid', g.value ->> 'token_symbol', g.value ->> 'token_name',
           g.value -> 'total_qty', g.value -> 'total_nav',
           CASE WHEN (g.value ->> 'total_qty') > 0 AND (g.value ->> 'total_nav') > 0
                THEN (g.value ->> 'total_nav') / (g.value ->> 'total_qty') END
      FROM ${from} json_each(${snapshot}.data) d, json_each(d.value, '$.positions') g ${where}
     ORDER BY ${snapshot}.id, d.key, g.key`;
  const columns = '(snapshot_id, wallet, chain, as_of, token_id, cid, symbol, name, qty, nav, price)';
  db.exec(`
    -- Untyped columns: a value is kept as the body's JSON reader gave it (a typed column would
    -- convert it, and a strict one refuse the snapshot it came with).
    CREATE TABLE snapshot_tokens (
      snapshot_id INTEGER NOT NULL,
      wallet      TEXT NOT NULL,
      chain       TEXT NOT NULL,
      as_of       TEXT NOT NULL,
      token_id,
      cid,
      symbol,
      name,
      qty,        -- total_qty as the body's JSON text ('null' when null, NULL when absent)
      nav,        -- total_nav, the same
      price       -- total_nav / total_qty where both are above zero, else NULL
    );
    CREATE INDEX snapshot_tokens_by_snapshot ON snapshot_tokens (snapshot_id);
    CREATE INDEX snapshot_tokens_by_member ON snapshot_tokens (wallet, chain, cid);

    INSERT INTO snapshot_tokens ${columns}
      ${tokensOf('s', 'snapshots s,', "WHERE s.endpoint = 'positionsByUnderlying' AND json_valid(s.data)")};

    CREATE TRIGGER snapshot_tokens_in AFTER INSERT ON snapshots
      WHEN NEW.endpoint = 'positionsByUnderlying' AND json_valid(NEW.data)
      BEGIN INSERT INTO snapshot_tokens ${columns} ${tokensOf('NEW')}; END;
    CREATE TRIGGER snapshot_tokens_out AFTER DELETE ON snapshots
      WHEN OLD.endpoint = 'positionsByUnderlying'
      BEGIN DELETE FROM snapshot_tokens WHERE snapshot_id = OLD.id; END;
  `);
}
