import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 31: the answers a screen asked of the portfolio view, kept in the file (issue 40 item
 * 2; owned by core/portfolio, docs/design-notes.md "Answers kept in the file").
 *
 * The kept views (portfolio/memo.ts) live in the core's memory, so the first screen after the app
 * starts built its view from nothing: seconds at a fund's scale for figures the file held,
 * unchanged, since the app last showed them. An answer here (a summary, a page of rows) is given
 * again only under the mark it was built under: the view's input counters (migration 30) for
 * its scope, with the app's version, so a new release never hands out a figure an older one
 * made.
 *
 * The answers repeat the figures of the wallets they cover. Removing a wallet, or any of its
 * snapshots (a purge, a restatement), drops every kept answer at once, so figures of data
 * removed from the file do not stay in it; the answers are rebuilt when next asked.
 */
export function updateToSchemaVersion31(db: Database): void {
  db.exec(`
    -- A rowid table: an answer is up to megabytes, which a WITHOUT ROWID table stores badly. The
    -- small columns come first, so the least recently used is found without reading an answer.
    CREATE TABLE kept_answers (
      ask       TEXT NOT NULL UNIQUE,  -- sha256 of the operation, its input and its scope's wallets as read
      mark      TEXT NOT NULL,         -- sha256 of the app's version and the scope's input counters
      used_at   INTEGER NOT NULL,      -- a sequence: the least recently used goes first
      size      INTEGER NOT NULL,      -- the answer's length: what all kept answers take together is bounded
      request   TEXT NOT NULL,         -- the operation and its input, as JSON: asked again after a sync
      answer    TEXT NOT NULL          -- the answer, as JSON
    ) STRICT;

    CREATE TRIGGER kept_answers_wallet_out AFTER DELETE ON wallets BEGIN DELETE FROM kept_answers; END;
    CREATE TRIGGER kept_answers_snapshot_out AFTER DELETE ON snapshots BEGIN DELETE FROM kept_answers; END;
  `);
}
