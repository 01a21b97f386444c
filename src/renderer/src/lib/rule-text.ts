import type { RuleConditions } from '../../../shared/model.ts';
import { displayName } from '../../../shared/display-names.ts';
import { asTyped, chain, isEvmAddress as isAddress, safe, shortAddress } from './format.ts';
import { words } from './words.ts';

/**
 * A rule's conditions as the rules table says them, in the UI's language (issue 39: one language
 * a screen, names rather than raw addresses): a counterparty or wallet by its name (the address
 * book's, a watched wallet's label; `nameOf` says it, null for none) or else its short address,
 * chains and action types by their shown names, quantities in the locale's notation with every
 * digit typed. The core's describeConditions (shared/annotations.ts) stays the CLI's and the
 * user-data plan's, in English with the addresses whole.
 */
export function ruleText(c: RuleConditions, nameOf: (address: string) => string | null): string {
  const w = words.books.said;
  const or = (xs: readonly string[]) => xs.join(w.or);
  const named = (a: string) => {
    const n = nameOf(a);
    return n ? safe(n) : isAddress(a) ? shortAddress(a) : safe(a);
  };
  const parts: string[] = [];
  if (c.direction) parts.push(w.directions[c.direction] ?? c.direction);
  if (c.counterparties) parts.push(w.counterparty(or(c.counterparties.map(named))));
  if (c.counterpartyNames) parts.push(w.named(or(c.counterpartyNames.map((n) => `“${safe(n)}”`))));
  if (c.actionTypes) parts.push(w.action(or(c.actionTypes.map((t) => displayName(t)))));
  if (c.methods) parts.push(w.method(or(c.methods)));
  if (c.token) {
    const token = w.token(isAddress(c.token) ? shortAddress(c.token) : safe(c.token));
    const { minAmount: min, maxAmount: max } = c;
    const range =
      min !== undefined && max !== undefined
        ? w.between(asTyped(min), asTyped(max))
        : min !== undefined
          ? w.atLeast(asTyped(min))
          : max !== undefined
            ? w.atMost(asTyped(max))
            : '';
    parts.push(range ? `${token} ${range}` : token);
  }
  if (c.chains) parts.push(w.on(c.chains.map(chain).join(', ')));
  if (c.wallets) parts.push(w.wallet(or(c.wallets.map(named))));
  if (c.status) parts.push(c.status === 'failed' ? w.failed : w.anyStatus);
  return parts.join('; ');
}

/** The addresses a rule names (its counterparties and wallets), whole: the table's tooltip. */
export const ruleAddresses = (c: RuleConditions): string[] => [...(c.counterparties ?? []), ...(c.wallets ?? [])];
