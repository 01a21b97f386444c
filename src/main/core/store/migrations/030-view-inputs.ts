import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 30: what a portfolio view read, counted per wallet (issue 37 item 8, issue 40 item 2;
 * owned by core/portfolio, docs/design-notes.md "Kept views and their parts").
 *
 * A wallet's view at a date is a function of its snapshots (at that date, and at every other:
 * the spam judge asks which tokens the wallet ever held), their checks (when the service last
 * sent a body), its transactions (what it bought by its own hand), and of a few small tables
 * every wallet's verdicts read: the user's spam marks, the imported lists, the address book and
 * the watched wallets. Every write to those bumps a counter here, by the database itself, so no
 * write path (the sync's worker, another process, a restatement, a purge) can forget to: a kept
 * view, or a wallet's part of one, is given again only while its counters are unchanged. The
 * wallet '' counts the small tables every wallet reads.
 *
 * Counters only grow while a file lives, so one value is one state of what the view read. A
 * wallet's label is not counted: a kept view is keyed by the scope as asked, labels included.
 * The transactions' insert trigger runs for each row the sync stores (bench/RESULTS.md, "Kept
 * views and their parts", measures what it costs the whale).
 */
export function updateToSchemaVersion30(db: Database): void {
  const bump = (wallet: string) => `INSERT INTO view_inputs (wallet, n) VALUES (${wallet}, 1) ON CONFLICT (wallet) DO UPDATE SET n = n + 1;`;
  db.exec(`
    CREATE TABLE view_inputs (
      wallet  TEXT PRIMARY KEY,
      n       INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;

    CREATE TRIGGER view_inputs_snapshot_in AFTER INSERT ON snapshots BEGIN ${bump('NEW.wallet')} END;
    CREATE TRIGGER view_inputs_snapshot_out AFTER DELETE ON snapshots BEGIN ${bump('OLD.wallet')} END;
    CREATE TRIGGER view_inputs_check_in AFTER INSERT ON snapshot_checks BEGIN
      ${bump("coalesce((SELECT wallet FROM snapshots WHERE id = NEW.snapshot_id), '')")}
    END;
    CREATE TRIGGER view_inputs_check_again AFTER UPDATE ON snapshot_checks BEGIN
      ${bump("coalesce((SELECT wallet FROM snapshots WHERE id = NEW.snapshot_id), '')")}
    END;
    CREATE TRIGGER view_inputs_check_out AFTER DELETE ON snapshot_checks BEGIN
      ${bump("coalesce((SELECT wallet FROM snapshots WHERE id = OLD.snapshot_id), '')")}
    END;

    CREATE TRIGGER view_inputs_txn_in AFTER INSERT ON transactions BEGIN ${bump('NEW.wallet')} END;
    CREATE TRIGGER view_inputs_txn_again AFTER UPDATE ON transactions BEGIN ${bump('OLD.wallet')} ${bump('NEW.wallet')} END;
    CREATE TRIGGER view_inputs_txn_out AFTER DELETE ON transactions BEGIN ${bump('OLD.wallet')} END;

    CREATE TRIGGER view_inputs_mark_in AFTER INSERT ON spam_verdicts BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_mark_again AFTER UPDATE ON spam_verdicts BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_mark_out AFTER DELETE ON spam_verdicts BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_list_in AFTER INSERT ON spam_lists BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_list_again AFTER UPDATE ON spam_lists BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_list_out AFTER DELETE ON spam_lists BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_party_in AFTER INSERT ON counterparties BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_party_again AFTER UPDATE ON counterparties BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_party_out AFTER DELETE ON counterparties BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_wallet_in AFTER INSERT ON wallets BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_wallet_again AFTER UPDATE OF address, chains ON wallets BEGIN ${bump("''")} END;
    CREATE TRIGGER view_inputs_wallet_out AFTER DELETE ON wallets BEGIN ${bump("''")} END;
  `);
}
