/**
 * How a category rule's conditions read, one line (issue 28, item 2): the CLI's list and the
 * Rules view say them alike. Plain text; the caller neutralises it for where it is shown.
 */
import type { RuleConditions } from './model.ts';

/** One line of a rule's conditions, as the list and the Rules view say them. */
export function describeConditions(c: RuleConditions): string {
  const parts: string[] = [];
  if (c.direction)
    parts.push(c.direction === 'internal' ? 'between own wallets' : c.direction === 'self' ? 'to itself' : c.direction === 'in' ? 'inflow' : 'outflow');
  if (c.counterparties) parts.push(`counterparty ${c.counterparties.join(' or ')}`);
  if (c.counterpartyNames) parts.push(`counterparty named ${c.counterpartyNames.join(' or ')}`);
  if (c.actionTypes) parts.push(`action ${c.actionTypes.join(' or ')}`);
  if (c.methods) parts.push(`method ${c.methods.join(' or ')}`);
  if (c.token) {
    const range =
      c.minAmount !== undefined && c.maxAmount !== undefined
        ? ` ${c.minAmount} to ${c.maxAmount}`
        : c.minAmount !== undefined
          ? ` at least ${c.minAmount}`
          : c.maxAmount !== undefined
            ? ` at most ${c.maxAmount}`
            : '';
    parts.push(`token ${c.token}${range}`);
  }
  if (c.chains) parts.push(`on ${c.chains.join(', ')}`);
  if (c.wallets) parts.push(`wallet ${c.wallets.join(' or ')}`);
  if (c.status) parts.push(c.status === 'failed' ? 'failed transactions' : 'any status');
  return parts.join('; ');
}
