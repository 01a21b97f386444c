/**
 * Schema drift as a real service shows it over time: floats sent as numeric strings
 * (and sometimes null), datetimes in another format, descriptive members missing, and
 * members the spec does not list. Identity members (ids, hashes, arrays) stay, since
 * without them a response is not drift but garbage.
 */

import { FLOAT_MEMBERS } from '../shared/service/schemas.ts';
import { Rng } from './random.ts';

// The float members are the spec's (part 2), listed once for both sides.
const FLOAT_KEYS = FLOAT_MEMBERS;
const DATETIME_KEYS = new Set(['date', 'unlock_time', 'unlocked_time']);
const DROPPABLE_KEYS = new Set(['name', 'symbol', 'reward_nav', 'gas_fee', 'method_hex', 'to_type', 'from_type', 'token_name']);

type DatetimeStyle = 'space' | 'seconds' | 'millis-string' | 'no-zone';

export function drift(value: unknown, seed: number, requestNo: number): unknown {
  const rng = new Rng(seed, 'drift', requestNo);
  const style = rng.pick<DatetimeStyle>(['space', 'seconds', 'millis-string', 'no-zone']);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(v)) {
      if (DROPPABLE_KEYS.has(k) && rng.chance(0.3)) continue;
      if (FLOAT_KEYS.has(k) && typeof child === 'number') {
        out[k] = rng.chance(0.08) ? null : rng.chance(0.5) ? String(child) : child;
      } else if (DATETIME_KEYS.has(k) && typeof child === 'string') {
        out[k] = restyle(child, style);
      } else {
        out[k] = walk(child);
      }
    }
    if (rng.chance(0.3)) out['x_indexer_version'] = `2.${rng.int(0, 9)}.${rng.int(0, 20)}`;
    return out;
  };
  return walk(value);
}

function restyle(iso: string, style: DatetimeStyle): string | number {
  const ms = Date.parse(iso);
  switch (style) {
    case 'space':
      return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    case 'seconds':
      return Math.floor(ms / 1000);
    case 'millis-string':
      return String(ms);
    case 'no-zone':
      return new Date(ms).toISOString().slice(0, 19);
  }
}
