/**
 * What a category rule matches (issue 28, item 2). Pure: given a transaction as the rules see it
 * (the ledger's `RuleTxn`) and what it needs of the rest of the cache (the watched
 * wallets, and a namer of counterparties when the address book gives one), whether every
 * condition of a rule holds. An absent condition holds; a condition on something the transaction
 * does not say (an unknown quantity, no counterparty) does not. The status is the exception: a
 * rule with none matches succeeded transactions only, since a failed one moved nothing (its
 * transfers were never made) and "Vendor payment" on it would book a payment that did not happen.
 */
import type { RuleConditions, TxnDirection } from '../../../shared/model.ts';
import { actionTypeKey } from '../../../shared/display-names.ts';
import { addressKey } from '../store/address-key.ts';
import type { StoredRule } from './store/annotations.ts';
import type { RuleTxn } from '../ledger/index.ts';

/**
 * Names of counterparties: the address book (core/counterparties' `counterpartyNamer`) gives a
 * name for an address on a chain, and whether it is one of ours (an entry marked ours, or a
 * watched wallet). Without one, name conditions never hold, and address conditions work alone.
 */
export type CounterpartyNamer = (address: string | null, chain: string) => { name: string; ours?: boolean } | null;

export interface RuleContext {
  /** The watched wallets' addresses, as stored: the other side being one makes a transfer internal. */
  watched: ReadonlySet<string>;
  namer?: CounterpartyNamer | undefined;
}

const key = (a: string | null): string | null => (a ? addressKey(a) : null);

/** The other side of a transaction for its wallet: the receiver when the wallet sent it, else the sender. */
export function counterpartyOf(t: RuleTxn): string | null {
  const from = key(t.from);
  return from === t.wallet ? key(t.to) : from;
}

/**
 * In, out, internal (the other side is another watched wallet, or an address-book entry marked
 * ours) or self (sent by the wallet to itself). Otherwise by the transfers: only inflows is in,
 * only outflows out; a mix (a swap) or none goes by who sent it (the wallet: out).
 */
export function directionOf(t: RuleTxn, watched: ReadonlySet<string>, namer?: CounterpartyNamer): TxnDirection {
  const from = key(t.from);
  const to = key(t.to);
  if (from === t.wallet && to === t.wallet) return 'self';
  const other = from === t.wallet ? to : from;
  if (other && other !== t.wallet && (watched.has(other) || namer?.(other, t.chain)?.ours === true)) return 'internal';
  const ins = t.details.some((d) => d.type === 'in');
  const outs = t.details.some((d) => d.type === 'out');
  if (ins && !outs) return 'in';
  if (outs && !ins) return 'out';
  return from === t.wallet ? 'out' : 'in';
}

/**
 * The quantity of a token the transaction moved: the sum over its transfers of that token (by
 * symbol, any case, or by token id); null when it moved none or any such quantity is unknown (an
 * unknown is never taken as a number).
 */
export function amountOf(t: RuleTxn, token: string): number | null {
  const want = token.toLowerCase();
  let sum = 0;
  let seen = false;
  for (const d of t.details) {
    if (d.symbol?.toLowerCase() !== want && d.token_cid?.toLowerCase() !== want) continue;
    if (d.qty === null || !Number.isFinite(d.qty)) return null;
    sum += Math.abs(d.qty);
    seen = true;
  }
  return seen ? sum : null;
}

const movedToken = (t: RuleTxn, token: string) => {
  const want = token.toLowerCase();
  return t.details.some((d) => d.symbol?.toLowerCase() === want || d.token_cid?.toLowerCase() === want);
};

/**
 * Action types by key, each worked out once: `matches` runs once per rule and cached transaction
 * (a million for a large cache), and the types are few. A rule's list, by the list; a
 * transaction's type, by its text (bounded: a service sending endless distinct types only
 * starts the memo again).
 */
const ruleActionKeys = new WeakMap<readonly string[], ReadonlySet<string>>();
const txnActionKeys = new Map<string, string>();
function ruleKeys(types: readonly string[]): ReadonlySet<string> {
  let keys = ruleActionKeys.get(types);
  if (!keys) ruleActionKeys.set(types, (keys = new Set(types.map(actionTypeKey))));
  return keys;
}
function txnKey(type: string): string {
  let key = txnActionKeys.get(type);
  if (key === undefined) {
    if (txnActionKeys.size >= 1000) txnActionKeys.clear();
    txnActionKeys.set(type, (key = actionTypeKey(type)));
  }
  return key;
}

export function matches(c: RuleConditions, t: RuleTxn, ctx: RuleContext): boolean {
  if (c.status === 'failed' ? t.status !== 0 : c.status !== 'any' && t.status !== 1) return false;
  if (c.wallets && !c.wallets.includes(t.wallet)) return false;
  if (c.chains && !c.chains.includes(t.chain)) return false;
  // As the screens spell it or as stored, in any case: compared by key (a rule saved before keys were stored too).
  if (c.actionTypes && (t.actionType === null || !ruleKeys(c.actionTypes).has(txnKey(t.actionType)))) return false;
  if (c.methods && (t.methodHex === null || !c.methods.includes(t.methodHex.toLowerCase()))) return false;
  if (c.direction && directionOf(t, ctx.watched, ctx.namer) !== c.direction) return false;
  if (c.counterparties || c.counterpartyNames) {
    const other = counterpartyOf(t);
    if (c.counterparties && (other === null || !c.counterparties.includes(other))) return false;
    if (c.counterpartyNames) {
      const name = ctx.namer && other !== null ? ctx.namer(other, t.chain)?.name : undefined;
      if (name === undefined || !c.counterpartyNames.some((n) => n.toLowerCase() === name.toLowerCase())) return false;
    }
  }
  if (c.token) {
    if (c.minAmount === undefined && c.maxAmount === undefined) return movedToken(t, c.token);
    const amount = amountOf(t, c.token);
    if (amount === null) return false;
    if (c.minAmount !== undefined && amount < c.minAmount) return false;
    if (c.maxAmount !== undefined && amount > c.maxAmount) return false;
  }
  return true;
}

/** The first rule (in order) that matches, or null. */
export function firstMatch(rules: readonly StoredRule[], t: RuleTxn, ctx: RuleContext): StoredRule | null {
  for (const r of rules) if (matches(r.conditions, t, ctx)) return r;
  return null;
}
