/**
 * One line for an edit of the audit trail, the same in the app and the CLI: what changed, from
 * what to what ("label: "Ops" → "Treasury""), or what was made or removed.
 */
import type { AuditEntry } from './model.ts';

const MAX = 80;

function shown(v: unknown): string {
  const text = v === undefined ? '(none)' : JSON.stringify(v);
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

/** The members of an item that differ between before and after, each "name: before → after". */
export function changedFields(before: unknown, after: unknown): string[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return names.filter((n) => JSON.stringify(b[n]) !== JSON.stringify(a[n])).map((n) => `${n}: ${shown(b[n])} → ${shown(a[n])}`);
}

/** A short name for the item (its label or name where it has one). */
function itemName(e: AuditEntry): string {
  const item = (e.after ?? e.before) as Record<string, unknown> | null;
  const name = item && typeof item === 'object' ? (item['name'] ?? item['label']) : undefined;
  return typeof name === 'string' && name ? `${e.key} "${name}"` : e.key;
}

export function describeEdit(e: AuditEntry): string {
  const what = `${e.entity} ${itemName(e)}`;
  switch (e.action) {
    case 'create':
      return `${what} created`;
    case 'delete':
      return `${what} removed`;
    case 'update':
      return `${what}: ${changedFields(e.before, e.after).join('; ')}`;
    default:
      return `${what} ${e.action === 'close' ? 'closed' : 'reopened'}${e.reason ? `: ${e.reason}` : ''}`;
  }
}
