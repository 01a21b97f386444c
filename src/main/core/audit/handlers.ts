/**
 * The audit trail's read operation: the user's edits, newest first, filtered by kind of item,
 * item, person and time (the trail is written by the store functions that make the edits, store/audit.ts).
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import { countEdits, editors, listEdits } from './store/trail.ts';

export function auditHandlers(c: Pick<ScopeContext, 'db'>): Pick<Handlers, 'audit.list'> {
  return {
    'audit.list': ({ entity, key, person, since, until, beforeId, limit }) => {
      // Stored in UTC (…Z), compared as text: an instant given with an offset is turned to UTC first.
      const utc = (t: string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
      const q = { entity, key, person, since: utc(since), until: utc(until) };
      return { entries: listEdits(c.db(), { ...q, beforeId, limit: limit ?? 200 }), total: countEdits(c.db(), q), people: editors(c.db()) };
    },
  };
}
