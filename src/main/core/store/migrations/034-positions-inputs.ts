import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 34: of each wallet's counter of what its views read (migration 30), how much its
 * positions moved (owned by core/portfolio, store/inputs.ts; docs/design-notes.md "Kept views and
 * their parts").
 *
 * The timeline's spam judge reads every watched wallet's history (a lookalike is one by the order
 * addresses first appeared in any of them), so it was kept only while no counter moved, and every
 * positions job a sync filed made it read everything again: ten people paging a team's timeline
 * while a sync ran paid that on every page (bench/RESULTS.md, "Team load"). A wallet's positions
 * are read for that wallet's verdicts alone (which tokens it held, at what price, on which day), so
 * a judge can forget that wallet's part and keep the rest, provided it knows that nothing but
 * positions moved. `positions` counts the writes to a wallet's snapshots and their checks, in the
 * same statement as `n`: a wallet whose `n` moved by as much as its `positions` had no other write.
 */
export function updateToSchemaVersion34(db: Database): void {
  const bump = (wallet: string) =>
    `INSERT INTO view_inputs (wallet, n, positions) VALUES (${wallet}, 1, 1) ON CONFLICT (wallet) DO UPDATE SET n = n + 1, positions = positions + 1;`;
  const ofCheck = (row: 'NEW' | 'OLD') => `coalesce((SELECT wallet FROM snapshots WHERE id = ${row}.snapshot_id), '')`;
  db.exec(`
    ALTER TABLE view_inputs ADD COLUMN positions INTEGER NOT NULL DEFAULT 0;

    DROP TRIGGER view_inputs_snapshot_in;
    DROP TRIGGER view_inputs_snapshot_out;
    DROP TRIGGER view_inputs_check_in;
    DROP TRIGGER view_inputs_check_again;
    DROP TRIGGER view_inputs_check_out;
    CREATE TRIGGER view_inputs_snapshot_in AFTER INSERT ON snapshots BEGIN ${bump('NEW.wallet')} END;
    CREATE TRIGGER view_inputs_snapshot_out AFTER DELETE ON snapshots BEGIN ${bump('OLD.wallet')} END;
    CREATE TRIGGER view_inputs_check_in AFTER INSERT ON snapshot_checks BEGIN ${bump(ofCheck('NEW'))} END;
    CREATE TRIGGER view_inputs_check_again AFTER UPDATE ON snapshot_checks BEGIN ${bump(ofCheck('NEW'))} END;
    CREATE TRIGGER view_inputs_check_out AFTER DELETE ON snapshot_checks BEGIN ${bump(ofCheck('OLD'))} END;
  `);
}
