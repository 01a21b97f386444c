/**
 * One line for an edit of the audit trail, the same in the app and the CLI: what changed, from
 * what to what ("label: "Ops" → "Treasury""), or what was made or removed.
 */
import type { AuditEntry } from './model.ts';

const MAX = 80;

/**
 * How a line is written: in full (the CLI and the CSV an auditor keeps: every address whole), or
 * for reading on a screen (`address` shortens each address; a list is written as its members, a
 * changed list as what was added and removed), where JSON arrays of full addresses wrapped
 * character by character (issue 39).
 */
export interface EditWording {
  address?: (address: string) => string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function shown(v: unknown, o: EditWording = {}): string {
  if (o.address) {
    const short = o.address;
    const one = (x: string) => (ADDRESS.test(x) ? short(x) : JSON.stringify(x));
    if (typeof v === 'string') return one(v);
    if (isStrings(v)) return v.length ? v.map(one).join(', ') : '(none)';
  }
  const text = v === undefined ? '(none)' : JSON.stringify(v);
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

/** The members of an item that differ between before and after, each "name: before → after". */
export function changedFields(before: unknown, after: unknown, o: EditWording = {}): string[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return names
    .filter((n) => JSON.stringify(b[n]) !== JSON.stringify(a[n]))
    .map((n) => {
      const was = b[n];
      const is = a[n];
      if (o.address && isStrings(was) && isStrings(is)) {
        // A list on a screen: what joined it and what left it, not two lists to compare by eye.
        const added = is.filter((x) => !was.includes(x));
        const removed = was.filter((x) => !is.includes(x));
        const parts = [...(added.length ? [`added ${shown(added, o)}`] : []), ...(removed.length ? [`removed ${shown(removed, o)}`] : [])];
        return `${n}: ${parts.length ? parts.join('; ') : 'reordered'}`;
      }
      return `${n}: ${shown(was, o)} → ${shown(is, o)}`;
    });
}

/** A short name for the item (its label or name where it has one). */
function itemName(e: AuditEntry, o: EditWording): string {
  const item = (e.after ?? e.before) as Record<string, unknown> | null;
  const name = item && typeof item === 'object' ? (item['name'] ?? item['label']) : undefined;
  const key = o.address && ADDRESS.test(e.key) ? o.address(e.key) : e.key;
  return typeof name === 'string' && name ? `${key} "${name}"` : key;
}

/** A period's close, prepared, approved, rejected and reopened (docs/closes.md), as the trail says it. */
const PERIOD_ACTIONS: Record<'close' | 'reopen' | 'prepare' | 'approve' | 'reject', string> = {
  close: 'closed',
  reopen: 'reopened',
  prepare: 'prepared for approval',
  approve: 'approved (closed)',
  reject: 'rejected',
};

export function describeEdit(e: AuditEntry, o: EditWording = {}): string {
  const what = `${e.entity} ${itemName(e, o)}`;
  switch (e.action) {
    case 'create':
      return `${what} created`;
    case 'delete':
      return `${what} removed`;
    case 'update':
      return `${what}: ${changedFields(e.before, e.after, o).join('; ')}`;
    default:
      return `${what} ${PERIOD_ACTIONS[e.action]}${e.reason ? `: ${e.reason}` : ''}`;
  }
}
