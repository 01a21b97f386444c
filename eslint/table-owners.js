// One owner per table: which part of the core holds each table's SQL, and where SQL names a table
// outside its owner. The lint rule sees imports, not the text of statements, so a part could
// reach another's table by SQL alone (a back door no import shows); test/lint/table-owners.test.ts
// runs this on src/main/core. The migrations create every table and are left out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * Every table the migrations leave, and the part of the core that owns it: the only part whose
 * SQL may name it. A new table gets a line here in the change that creates it.
 */
export const TABLE_OWNERS = {
  // The open store's own: the watched wallets, their groups, the settings. Every part may read
  // and join them (the open store is below all, as its files are open to all).
  wallets: 'store',
  wallet_groups: 'store',
  wallet_group_members: 'store',
  settings: 'store',
  audit_log: 'audit',
  service_conventions: 'service',
  service_anomalies: 'service',
  snapshots: 'positions',
  snapshot_checks: 'positions',
  // Each by-underlying snapshot's tokens, written by a trigger with it (migration 32).
  snapshot_tokens: 'positions',
  transactions: 'transactions',
  transaction_changes: 'transactions',
  transaction_symbols: 'transactions',
  transaction_write_stamps: 'transactions',
  hash_keys: 'transactions',
  hash_keys_recent: 'transactions',
  transfer_days: 'transactions',
  transfer_days_state: 'transactions',
  party_dealings: 'transactions',
  txn_sync_ranges: 'transactions',
  txn_owed_seams: 'transactions',
  txn_logs: 'transactions',
  txn_log_sets: 'transactions',
  counterparties: 'counterparties',
  txn_annotations: 'annotations',
  categories: 'annotations',
  category_rules: 'annotations',
  annotation_state: 'annotations',
  schedules: 'schedule',
  schedule_lease: 'schedule',
  alert_rules: 'alerts',
  alerts: 'alerts',
  alert_pending: 'alerts',
  period_closes: 'closes',
  spam_verdicts: 'spam',
  spam_lists: 'spam',
  // What each wallet's portfolio view read, counted by triggers (migration 30): the kept views' stamps.
  view_inputs: 'portfolio',
  // The answers a screen asked of a view, kept in the file under the same counters (migration 31).
  kept_answers: 'portfolio',
  // The people of a team server (docs/team.md): sign-in, sessions, API tokens.
  people: 'people',
  people_sessions: 'people',
  people_tokens: 'people',
  people_sign_in_attempts: 'people',
  // Each person's own theme, format and time zone (over the books' settings).
  people_settings: 'people',
};

/**
 * Who else may name a table, and why: the parts (or single files) allowed besides its owner.
 */
export const TABLE_READERS = {
  // The ledger is the read models of the cached history: the transactions with what is attached
  // to them (notes and categories, the address book's names). Other parts read them through it.
  ledger: ['transactions', 'annotations', 'counterparties'],
  // The trail's writer: every edit records itself in its own transaction, the open store's
  // tables' edits too, so the writer sits in the store below all (audit reads the trail).
  'store/audit.ts': ['audit'],
};

const STATEMENT = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)\b|\bname\s*=\s*'([a-z_][a-z0-9_]*)'/g;

/** The text of each string and template literal of a file: SQL lives there, not in comments. */
function literals(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out = [];
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      // Each piece apart: a spliced value ends a piece, so `FROM ${table}` names no table here.
      out.push(node.head.text, ...node.templateSpans.map((s) => s.literal.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The tables a piece of source names in its SQL (string and template literals only). */
export function tablesNamed(file, text) {
  const named = new Set();
  for (const piece of literals(file, text))
    for (const m of piece.matchAll(STATEMENT)) {
      const table = m[1] ?? m[2];
      if (Object.hasOwn(TABLE_OWNERS, table)) named.add(table);
    }
  return [...named].sort();
}

/** The part of `core` a file belongs to: its first folder, or the file itself at the top. */
function partOf(rel) {
  return rel.split('/')[0];
}

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

/**
 * Every place under `core` (a folder laid out as src/main/core) where SQL names a table outside
 * its owner and its allowed readers: `file (relative to core): table (owner)`. Empty when each
 * table is named only where it belongs.
 */
export function tablesOutsideOwners(core) {
  const found = [];
  for (const path of files(core)) {
    const rel = relative(core, path).split(sep).join('/');
    if (rel.startsWith('store/migrations/')) continue;
    const part = partOf(rel);
    for (const table of tablesNamed(path, readFileSync(path, 'utf8'))) {
      const owner = TABLE_OWNERS[table];
      if (owner === part || owner === 'store') continue;
      if (TABLE_READERS[part]?.includes(owner) || TABLE_READERS[rel]?.includes(owner)) continue;
      found.push(`${rel}: ${table} (${owner})`);
    }
  }
  return found;
}
