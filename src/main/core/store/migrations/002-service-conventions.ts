import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 2: what the client learned about the service's reading of the spec's open points,
 * the anomalies that make it doubt them, why a range is incomplete, and logs keyed by their
 * position in the read (a `log_index` that restarts on every page must not overwrite a row).
 */
export function updateToSchemaVersion2(db: Database): void {
  db.exec(`
    -- One row per open point (key), plus '_run' for the learning run itself.
    CREATE TABLE service_conventions (
      key         TEXT PRIMARY KEY,
      value       TEXT NOT NULL,                 -- JSON
      status      TEXT NOT NULL CHECK (status IN ('learned', 'assumed', 'unknown')),
      evidence    TEXT NOT NULL,
      learned_at  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE service_anomalies (
      id           INTEGER PRIMARY KEY,
      kind         TEXT NOT NULL,
      wallet       TEXT,
      chain        TEXT,
      detail       TEXT NOT NULL,
      at           TEXT NOT NULL,
      resolved_at  TEXT
    ) STRICT;
    CREATE INDEX service_anomalies_open ON service_anomalies (resolved_at, wallet, chain);

    -- Why a range is not complete (completion ratio, anomaly, failed page), for the user.
    ALTER TABLE txn_sync_ranges ADD COLUMN reason TEXT;

    -- Logs: keyed by position in the read; log_index is kept as the service sent it.
    ALTER TABLE txn_log_sets ADD COLUMN complete INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE txn_log_sets ADD COLUMN note TEXT;
    CREATE TABLE txn_logs_v2 (
      chain      TEXT NOT NULL,
      txn_hash   TEXT NOT NULL,
      position   INTEGER NOT NULL,
      log_index  INTEGER,
      topics     TEXT NOT NULL,
      data       TEXT,
      PRIMARY KEY (chain, txn_hash, position),
      FOREIGN KEY (chain, txn_hash) REFERENCES txn_log_sets (chain, txn_hash) ON DELETE CASCADE
    ) STRICT, WITHOUT ROWID;
    INSERT INTO txn_logs_v2 (chain, txn_hash, position, log_index, topics, data)
      SELECT chain, txn_hash, log_index, log_index, topics, data FROM txn_logs;
    DROP TABLE txn_logs;
    ALTER TABLE txn_logs_v2 RENAME TO txn_logs;
  `);
}
