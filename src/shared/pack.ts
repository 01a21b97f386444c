/**
 * The monthly pack (issue 28, item 5): a scope's NAV from one cached date to another and what
 * moved it: flows in and out (by category and counterparty) valued at the prices the snapshots
 * imply, rewards and accruals, the price effect, and the same by wallet, protocol and chain.
 * Built in the core (src/main/core/pack/pack.ts); the screen, the PDF and the CSVs show it.
 */
import { decimalSum } from './decimal.ts';
import type { PositionMoveKind } from './model.ts';

/** Money in and out of a line (USD, positive figures); `unvalued` transfers had no price. */
export interface PackFlows {
  inflow: number;
  outflow: number;
  /** Transfers counted (valued ones). */
  transfers: number;
  /** Transfers with no cached price near their day: in no figure, named in `unpriced`. */
  unvalued: number;
}

/**
 * The names the core gives when it has none to give: the scope of every wallet, and the category
 * of a transaction with none. A PDF says them in its own language (reports/pdf-words.ts).
 */
export const ALL_WALLETS = 'All wallets';
export const UNCATEGORISED = 'Uncategorised';

export interface PackFlowLine extends PackFlows {
  key: string;
  label: string;
}

/**
 * `key` is the address; an address has one line per name it goes by in the period (an entry of
 * the address book naming it on some chains only leaves it unknown on the others), so a line is
 * told apart by its key, kind and label together.
 */
export interface PackCounterpartyLine extends PackFlowLine {
  /** book: in the address book; wallet: a watched wallet outside the scope; unknown: neither. */
  kind: 'book' | 'wallet' | 'unknown';
}

/** A part of the scope (a wallet, a protocol, a chain): its NAV at each end and its flows. */
export interface PackPart extends PackFlows {
  key: string;
  label: string;
  opening: number | null;
  closing: number | null;
}

/** One token of one wallet on one chain: the roll-forward in quantity and in value. */
export interface PackToken {
  wallet: string;
  chain: string;
  symbol: string | null;
  tokenCid: string | null;
  openingQty: number | null;
  closingQty: number | null;
  inflowQty: number;
  outflowQty: number;
  /** Quantity not from a transaction of the period: accrual, rewards, fees paid, or unexplained. */
  accrualQty: number | null;
  openingNav: number | null;
  closingNav: number | null;
  /** The token's flows (signed: in minus out) at the prices of their days. */
  flowValue: number | null;
  accrualValue: number | null;
  priceEffect: number | null;
  /** The cached dates whose prices valued its flows and accrual. */
  priceDates: string[];
}

export interface MonthlyPack {
  from: string;
  to: string;
  /** Who the pack is for: a wallet's label or address, a group's name, or "All wallets". */
  scope: string;
  wallets: string[];
  opening: number | null;
  closing: number | null;
  /** closing − opening, when both are known. */
  change: number | null;
  /** Flows with counterparties outside the scope. */
  inflows: number;
  outflows: number;
  /**
   * The part of them that transactions with a protocol moved (swaps, deposits, withdrawals,
   * claims): the roll-forward shows money sent and received (inflows − protocolIn, outflows −
   * protocolOut) apart from these, as one net line.
   */
  protocolIn: number;
  protocolOut: number;
  /**
   * Tokens the transactions that opened or closed one of the scope's own positions moved between a
   * balance and that position (USD at their days' prices, positive): into positions (deposits),
   * out of them (withdrawals), a debt drawn or repaid. Not flows, and no change in NAV (the tokens
   * stay the scope's): shown by name, outside the sum. Absent in a pack closed before they were
   * told apart (then such a deposit was in the protocol moves, its quantity in the accruals).
   */
  positionMoves?: Record<PositionMoveKind, number>;
  /** The net value of moves between the scope's own wallets (at their days' prices; near zero). */
  internal: number;
  /**
   * Quantity changes no transaction of the period explains, valued at the closing price. Null
   * (with the price effect and `other`) when either end's NAV is unknown: a line of a change
   * that cannot be known is unknown, never 0.
   */
  accruals: number | null;
  /** What prices did: the rest of each token's change. */
  priceEffect: number | null;
  /**
   * The positions total's change less the by-token table's (a position valued in one view and
   * not the other): zero when the two views agree; shown so the lines add up to the change.
   */
  other: number | null;
  byCategory: PackFlowLine[];
  byCounterparty: PackCounterpartyLine[];
  byWallet: PackPart[];
  byProtocol: PackPart[];
  byChain: PackPart[];
  tokens: PackToken[];
  /** Tokens whose transfers found no cached price in the period: those transfers are in no figure. */
  unpriced: Array<{ chain: string; symbol: string | null; tokenCid: string | null; transfers: number }>;
  /** Transactions that sent tokens out in a plain transfer to an address neither in the address book nor watched: a control flag. */
  unknownOutflows: number;
  /** Transactions judged spam (docs/spam.md), in none of the pack's flows, counterparties or flags. */
  spamTransactions: number;
  /** Positions judged spam at each end (docs/spam.md): in neither NAV. */
  spamPositions: { opening: { count: number; claimed: number | null }; closing: { count: number; claimed: number | null } };
  complete: boolean;
  /** Why the pack is partial (a date not cached for a member, a period not synced, a price missing). */
  reasons: string[];
}

/** A line of the roll-forward, as the screen, the PDF and the CSV show it (one list, so they agree). */
export interface RollForwardLine {
  /** The CSV's `key` of the summary row. */
  key: 'opening' | 'received' | 'sent' | 'protocol_moves' | 'internal' | 'accruals' | 'price_effect' | 'other' | 'closing' | 'change' | PositionMoveKind;
  label: string;
  /** USD, signed as it moves the NAV; null where unknown. */
  value: number | null;
  /** Opening and closing NAV (the totals the lines lead from and to). */
  total: boolean;
  /** A line shown only when it is not zero (internal transfers, other, the moves). */
  optional: boolean;
  /** Named, but not in the sum: a move between the scope's balances and its own positions changes no NAV. */
  memo: boolean;
}

/**
 * The roll-forward in order: opening NAV, money received and sent (transfers), trades and
 * protocol moves (net), internal transfers, rewards and accruals, price effect, other, closing
 * NAV, and the change. The lines from opening add up to closing, to the cent. After them, by
 * name and outside the sum, what moved between the scope's balances and its own positions.
 */
export function rollForwardLines(p: MonthlyPack): RollForwardLine[] {
  const line = (
    key: RollForwardLine['key'],
    label: string,
    value: number | null,
    o: { total?: boolean; optional?: boolean; memo?: boolean } = {},
  ): RollForwardLine => ({
    key,
    label,
    value,
    total: o.total ?? false,
    optional: o.optional ?? false,
    memo: o.memo ?? false,
  });
  const moved = (key: PositionMoveKind, label: string) => line(key, label, p.positionMoves?.[key] ?? 0, { optional: true, memo: true });
  return [
    line('opening', `Opening NAV (${p.from})`, p.opening, { total: true }),
    line('received', 'Received (transfers in)', decimalSum([p.inflows, -p.protocolIn])),
    line('sent', 'Sent (transfers out)', decimalSum([-p.outflows, p.protocolOut])),
    line('protocol_moves', 'Trades and protocol moves (net)', decimalSum([p.protocolIn, -p.protocolOut])),
    line('internal', 'Internal transfers (net)', p.internal, { optional: true }),
    line('accruals', 'Rewards, accruals and fees (no transaction)', p.accruals),
    line('price_effect', 'Price effect', p.priceEffect),
    line('other', 'Positions not in the by-token view, and rounding', p.other, { optional: true }),
    line('closing', `Closing NAV (${p.to})`, p.closing, { total: true }),
    line('change', 'Change', p.change),
    moved('moved_into_positions', 'Moved into own positions (deposits; no change in NAV)'),
    moved('moved_out_of_positions', 'Moved out of own positions (withdrawals; no change in NAV)'),
    moved('debt_drawn', 'Debt drawn into balances (no change in NAV)'),
    moved('debt_repaid', 'Debt repaid from balances (no change in NAV)'),
  ];
}
