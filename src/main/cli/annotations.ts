/**
 * `folioscope notes`, `folioscope rules` and `folioscope categories` (issue 28, item 2): a
 * transaction's note and category, the category rules, and the list of categories. Everything
 * goes through the contract (validated as from any shell); what the service or the user wrote is
 * neutralised for the terminal (forTerminal), and --json escapes it (jsonForTerminal).
 */
export { unknownActionTypes } from '../../shared/display-names.ts';
import type { Category, CategoryRule, RuleConditions } from '../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../shared/text-safety.ts';
import { describeConditions } from '../../shared/annotations.ts';

export const NOTES_USAGE = `Usage: folioscope notes set TXN_HASH --wallet W --chain C [--note TEXT] [--category NAME]
       folioscope notes show TXN_HASH --wallet W --chain C [--json]
       folioscope notes orphans [--json]      notes kept for transactions the service removed
--note '' clears the note; --category '' clears the manual category (the rules decide again).
A manual category always wins over a rule's. Categories: folioscope categories list.`;

export const RULES_USAGE = `Usage: folioscope rules list [--json]
       folioscope rules add --category NAME CONDITIONS [--name TEXT] [--position N]
       folioscope rules remove ID
       folioscope rules apply                 apply every rule to every cached transaction again
       folioscope rules preview CONDITIONS    how many cached transactions the conditions match
CONDITIONS (all must hold; at least one):
  --counterparty ADDR[,ADDR]   the other side of the transaction
  --counterparty-name NAME[,NAME]   the other side's name in the address book (counterparties)
  --direction in|out|internal|self
  --action TYPE[,TYPE]         action type (e.g. transfer, swap)
  --method 0xHEX[,0xHEX]       method id
  --token SYMBOL|TOKEN_ID      a token the transaction moved
  --min QTY / --max QTY        the quantity of --token it moved (inclusive)
  --chain C[,C]   --wallet W[,W]
  --status failed|any          a rule matches succeeded transactions only unless it says so
                               (a failed one moved nothing); any: an unknown status too
Rules are tried in order; the first that matches sets the category. Saving or removing a rule
applies them all again; new transactions are categorised after each sync. Manual choices stay.`;

export const CATEGORIES_USAGE = `Usage: folioscope categories list [--json]
The categories notes and rules use (the app's Rules view edits them).`;

const list = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** Conditions from the command line's options; numbers are checked by the contract, which names the field. */
export function conditionsFrom(v: Record<string, string | boolean | undefined>, usageError: (m: string) => Error): RuleConditions {
  const text = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const num = (k: string) => {
    const t = text(k);
    if (t === undefined) return undefined;
    // A plain decimal quantity, as the app's form takes it: not hex (Number('0x10') is 16), and
    // not one so small it reads as 0 (1e-400).
    const n = Number(t);
    if (!/^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(t) || !Number.isFinite(n))
      throw usageError(`--${k} ${forTerminal(t.slice(0, 40))} is not a quantity: write it as a decimal number (1500, 0.25, 1e6).`);
    if (n === 0 && /[1-9]/.test(t.replace(/[eE].*$/, ''))) throw usageError(`--${k} ${forTerminal(t.slice(0, 40))} is too small to tell from 0.`);
    return n;
  };
  const c: RuleConditions = {};
  const set = <K extends keyof RuleConditions>(k: K, value: RuleConditions[K] | undefined) => {
    if (value !== undefined) c[k] = value;
  };
  set('counterparties', list(text('counterparty')));
  set('counterpartyNames', list(text('counterparty-name')));
  const direction = text('direction');
  if (direction !== undefined && !['in', 'out', 'internal', 'self'].includes(direction))
    throw usageError(`--direction is one of in, out, internal, self (not ${forTerminal(direction.slice(0, 20))}).`);
  set('direction', direction as RuleConditions['direction']);
  set('actionTypes', list(text('action')));
  set('methods', list(text('method')));
  set('token', text('token'));
  set('minAmount', num('min'));
  set('maxAmount', num('max'));
  set('chains', list(text('chain')));
  set('wallets', list(text('wallet')));
  const status = text('status');
  if (status !== undefined && status !== 'failed' && status !== 'any')
    throw usageError(`--status is failed or any (not ${forTerminal(status.slice(0, 20))}); without it a rule matches succeeded transactions.`);
  set('status', status);
  return c;
}

export const unknownActionTypesLine = (unknown: readonly string[], known: readonly string[]) =>
  `No cached transaction has action type ${unknown.join(' or ')}; known: ${known.length ? known.join(', ') : 'none yet'}.`;

export const CONDITION_OPTIONS = {
  counterparty: { type: 'string' },
  'counterparty-name': { type: 'string' },
  direction: { type: 'string' },
  action: { type: 'string' },
  method: { type: 'string' },
  token: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  chain: { type: 'string' },
  wallet: { type: 'string' },
  status: { type: 'string' },
} as const;

export function printRules(rules: readonly CategoryRule[], json: boolean): void {
  if (json) return void console.log(jsonForTerminal(rules));
  if (!rules.length) return void console.log('No rules. Add one: folioscope rules add --category "Vendor payment" --direction out --token USDC');
  console.log(['order', 'id', 'name', 'category', 'conditions'].join('\t'));
  for (const r of rules) console.log([String(r.position), String(r.id), r.name, r.category, describeConditions(r.conditions)].map(forTerminal).join('\t'));
}

export function printCategories(categories: readonly Category[], json: boolean): void {
  if (json) return void console.log(jsonForTerminal(categories));
  console.log(['name', 'kind', 'colour', 'transactions'].join('\t'));
  for (const c of categories) console.log([c.name, c.kind, c.colour ?? '', String(c.used)].map(forTerminal).join('\t'));
}
