/**
 * Fault injection. Each rule is switchable on its own and fires for a count of
 * requests (`times`), with a probability, or both; `endpoint` narrows it to one
 * operation. Probabilities draw from the simulator's seeded generator, so a run
 * with the same requests injects the same faults.
 */

import type { EndpointName } from '../shared/service/endpoints.ts';
import { Rng } from './random.ts';

export const FAULT_KINDS = [
  'rate-limit', // 429 with Retry-After
  'server-error', // 500, 502 or 503
  'hang', // accepts the request and never answers
  'malformed-json', // 200 with a body that is not JSON
  'truncated', // 200 whose body stops halfway (connection closed)
  'schema-drift', // missing fields, numeric strings, other datetime formats, extra members
  'status-not-ok', // 200 with `status` other than OK
  'incomplete', // completion_ratio below 1 for recent ranges (recent transactions not yet indexed)
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** Chance that a matching request is hit; default 1. */
  probability?: number;
  /** How many hits before the rule switches itself off; default: unlimited. */
  times?: number;
  endpoint?: EndpointName;
  /** server-error: which status (default: 500, 502 and 503 in turn). */
  status?: 500 | 502 | 503;
  /** rate-limit: the Retry-After header in seconds (default 1). */
  retryAfterSeconds?: number;
  /** incomplete: how many days before the history's end are not yet indexed (default 7). */
  recentDays?: number;
  /**
   * Only transactions requests whose time range spans at most this many seconds (end_time −
   * start_time, in seconds whatever the unit): a client's re-read of one second or of a page
   * seam, not its reads of a range. Default: any request.
   */
  maxSpanSeconds?: number;
}

export function isFaultKind(s: string): s is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(s);
}

export class FaultPlan {
  private rules: FaultRule[] = [];
  private draws = 0;
  private serverErrors = 0;
  constructor(private readonly seed: number) {}

  set(rules: FaultRule[]): void {
    this.rules = rules.map((r) => ({ ...r }));
  }
  add(rule: FaultRule): void {
    this.rules.push({ ...rule });
  }
  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** The rule of this kind that fires for this request, if any (and counts the hit); `spanSeconds`: a transactions request's time range. */
  fire(kind: FaultKind, endpoint: EndpointName, spanSeconds?: number): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.kind !== kind || (rule.endpoint && rule.endpoint !== endpoint)) continue;
      if (rule.maxSpanSeconds !== undefined && !(spanSeconds !== undefined && spanSeconds <= rule.maxSpanSeconds)) continue;
      if (rule.times !== undefined && rule.times <= 0) continue;
      const p = rule.probability ?? 1;
      if (p < 1 && !(new Rng(this.seed, 'fault', this.draws++).float() < p)) continue;
      if (rule.times !== undefined) rule.times--;
      return rule;
    }
    return undefined;
  }

  /** A rule of this kind that is active, without counting a hit (for data-shaping faults). */
  active(kind: FaultKind, endpoint: EndpointName): FaultRule | undefined {
    return this.rules.find((r) => r.kind === kind && (!r.endpoint || r.endpoint === endpoint) && (r.times === undefined || r.times > 0));
  }

  nextServerErrorStatus(rule: FaultRule): number {
    return rule.status ?? ([500, 502, 503] as const)[this.serverErrors++ % 3]!;
  }
}
