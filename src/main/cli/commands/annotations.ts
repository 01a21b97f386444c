/**
 * `folioscope notes`, `folioscope rules` and `folioscope categories` (issue 28, item 2): a
 * transaction's note and category, the category rules, and the list of categories. Everything
 * goes through the contract (validated as from any shell); what the service or the user wrote is
 * neutralised for the terminal (forTerminal), and --json escapes it (jsonForTerminal).
 */
import { unknownActionTypes } from '../../../shared/display-names.ts';
import type { Category, CategoryRule, RuleConditions } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { describeConditions } from '../../../shared/annotations.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { say, warn } from '../io.ts';

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
  if (json) return void say(jsonForTerminal(rules));
  if (!rules.length) return void say('No rules. Add one: folioscope rules add --category "Vendor payment" --direction out --token USDC');
  say(['order', 'id', 'name', 'category', 'conditions'].join('\t'));
  for (const r of rules) say([String(r.position), String(r.id), r.name, r.category, describeConditions(r.conditions)].map(forTerminal).join('\t'));
}

export function printCategories(categories: readonly Category[], json: boolean): void {
  if (json) return void say(jsonForTerminal(categories));
  say(['name', 'kind', 'colour', 'transactions'].join('\t'));
  for (const c of categories) say([c.name, c.kind, c.colour ?? '', String(c.used)].map(forTerminal).join('\t'));
}

export async function notesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = NOTES_USAGE;
  const p = parse(
    args,
    { wallet: { type: 'string' }, chain: { type: 'string' }, note: { type: 'string' }, category: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const [sub, hash, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  const key = () => {
    if (!hash || !v.wallet || !v.chain) throw new UsageError(`notes ${sub} needs TXN_HASH, --wallet and --chain.\n\n${usage}`);
    return { wallet: v.wallet, chain: v.chain, txnHash: hash };
  };
  await withCore(g, async (core) => {
    if (sub === 'set') {
      const k = key();
      if (v.note === undefined && v.category === undefined) throw new UsageError(`notes set needs --note or --category (or both).\n\n${usage}`);
      const a = await call(core, 'notes.set', {
        ...k,
        ...(v.note !== undefined && { note: v.note }),
        ...(v.category !== undefined && { category: v.category }),
      });
      if (v.json) return void say(jsonForTerminal(a));
      say(
        forTerminal(
          `${k.txnHash}: ${a?.category ? `category ${a.category} (${a.source})` : 'no category'}${a?.note ? `; note: ${a.note.replace(/\n/g, ' / ')}` : '; no note'}.`,
        ),
      );
    } else if (sub === 'show') {
      const a = await call(core, 'notes.get', key());
      if (v.json) return void say(jsonForTerminal(a));
      if (!a) return void say('No note or category.');
      say(forTerminal(`category: ${a.category ?? '(none)'}${a.source ? ` (${a.source})` : ''}`));
      if (a.manualCategory && a.ruleCategory) say(forTerminal(`a rule would say: ${a.ruleCategory}`));
      say(forTerminal(`note: ${a.note ?? '(none)'}`));
      if (a.orphaned) say('The service no longer returns this transaction; the note is kept.');
    } else if (sub === 'orphans') {
      if (hash) throw new UsageError(usage);
      const orphans = await call(core, 'notes.orphans', undefined);
      if (v.json) return void say(jsonForTerminal(orphans));
      if (!orphans.length) return void say('No notes on transactions the service removed.');
      say(['wallet', 'chain', 'txn_hash', 'category', 'note'].join('\t'));
      for (const a of orphans) say([a.wallet, a.chain, a.txnHash, a.manualCategory ?? '', a.note ?? ''].map(forTerminal).join('\t'));
    } else throw new UsageError(usage);
  });
}

export async function rulesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = RULES_USAGE;
  const p = parse(
    args,
    { ...CONDITION_OPTIONS, category: { type: 'string' }, name: { type: 'string' }, position: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const [sub, arg, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  const conditions = () => conditionsFrom(v, (m) => new UsageError(`${m}\n\n${usage}`));
  await withCore(g, async (core) => {
    if (sub === 'list') {
      printRules(await call(core, 'rules.list', undefined), v.json ?? false);
    } else if (sub === 'add') {
      if (arg || !v.category) throw new UsageError(`rules add needs --category NAME and at least one condition.\n\n${usage}`);
      const position = v.position === undefined ? undefined : Number(v.position);
      if (position !== undefined && (!Number.isInteger(position) || position < 1)) throw new UsageError(`--position is a whole number from 1.\n\n${usage}`);
      const { rule, applied } = await call(core, 'rules.save', {
        category: v.category,
        conditions: conditions(),
        ...(v.name !== undefined && { name: v.name }),
        ...(position !== undefined && { position }),
      });
      say(forTerminal(`Rule ${rule.id} "${rule.name}" (order ${rule.position}) sets ${rule.category}.`));
      say(`Applied to ${applied.evaluated} cached transactions: ${applied.categorised} categorised by a rule.`);
      // --action Swap is saved as swap (as the app shows and stores it); a type no transaction has is said, not left to match nothing.
      if (rule.conditions.actionTypes) {
        const known = (await call(core, 'timeline.facets', {})).actionTypes;
        const unknown = unknownActionTypes(rule.conditions.actionTypes, known);
        if (unknown.length) warn(forTerminal(unknownActionTypesLine(unknown, known)));
      }
    } else if (sub === 'remove') {
      if (!arg || !/^\d{1,15}$/.test(arg)) throw new UsageError(usage);
      const { removed, applied } = await call(core, 'rules.remove', { id: Number(arg) });
      if (!removed) throw new Error(`There is no rule ${arg}.`);
      say(`Rule ${arg} removed. Applied again: ${applied.categorised} of ${applied.evaluated} cached transactions categorised by a rule.`);
    } else if (sub === 'apply') {
      if (arg) throw new UsageError(usage);
      const applied = await call(core, 'rules.apply', undefined);
      say(`Applied every rule to ${applied.evaluated} cached transactions: ${applied.categorised} categorised by a rule (manual choices kept).`);
    } else if (sub === 'preview') {
      if (arg) throw new UsageError(usage);
      const { matches, sample, unknownActionTypes: unknown, knownActionTypes: known } = await call(core, 'rules.preview', { conditions: conditions() });
      if (v.json) return void say(jsonForTerminal({ matches, sample, unknownActionTypes: unknown, knownActionTypes: known }));
      say(`Matches ${matches} cached transaction${matches === 1 ? '' : 's'}.`);
      if (unknown.length) say(forTerminal(unknownActionTypesLine(unknown, known)));
      for (const s of sample) say(forTerminal(`  ${s.txnHash} (${s.wallet} on ${s.chain})`));
    } else throw new UsageError(usage);
  });
}

export async function categoriesCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { json: { type: 'boolean' } }, CATEGORIES_USAGE);
  if (!p) return;
  const [sub, ...extra] = p.positionals;
  if (sub !== 'list' || extra.length) throw new UsageError(CATEGORIES_USAGE);
  await withCore(g, async (core) => printCategories(await call(core, 'categories.list', undefined), p.values.json ?? false));
}
