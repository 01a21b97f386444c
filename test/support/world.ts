import { onChain, priceOn, TOKENS } from '../../src/sim/catalog.ts';
import { chainById } from '../../src/sim/chains.ts';
import { DAY_MS, declaredPositions, positionsOn } from '../../src/sim/positions.ts';
import { declaredQty } from '../../src/sim/templates.ts';
import { defaultHistory, historyOf, indexRange, positionEventsOf, transactionAt } from '../../src/sim/transactions.ts';

/**
 * The demo world's own account of a period, read from the simulator's plan (its holdings, its
 * transactions, the positions it declares and the transactions it makes open and close them), for
 * tests that check the client's figures against the world rather than against the client's code.
 */

/** The two wallets the demo offers, and their chains. */
export const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
] as const;

export type MoveKind = 'moved_into_positions' | 'moved_out_of_positions' | 'debt_drawn' | 'debt_repaid';

/** A transfer of a successful transaction of the period; `move` when it moved tokens between the balance and an own position. */
export interface WorldTransfer {
  wallet: string;
  chain: string;
  /** The catalog's key of the token (for its price model) and its address. */
  key: string;
  tokenCid: string;
  day: number;
  type: 'in' | 'out';
  qty: number;
  move: MoveKind | null;
}

/** Per `wallet|chain|token address`, in micro-units. `moved`: into own positions (out of the plain balance); `accrual`: the declared accruals. */
export interface WorldRow {
  opening: number;
  inflow: number;
  outflow: number;
  moved: number;
  closing: number;
  accrual: number;
}

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const held = (p: { openDay: number; closeDay: number }, day: number) => p.openDay <= day && day < p.closeDay;

/**
 * The world's roll-forward of the demo wallets from `from` to `to` (cached dates: holdings at the
 * end of the day): every position's legs at each end as the service rounds them; the transfers of
 * its successful transactions dated after `from`'s day through `to`'s day; of those, the moves:
 * the transfers of the transactions its plan makes open or close a position held at one end only
 * (one opened and closed inside the period is at neither end); and the declared accruals: each
 * position's legs at `to` less at `from`, less what the moves put in.
 */
export function worldPeriod(from: string, to: string): { rows: Map<string, WorldRow>; transfers: WorldTransfer[] } {
  const [d0, d1] = [dayOf(from), dayOf(to)];
  const rows = new Map<string, WorldRow>();
  const transfers: WorldTransfer[] = [];
  const row = (key: string) => rows.get(key) ?? rows.set(key, { opening: 0, inflow: 0, outflow: 0, moved: 0, closing: 0, accrual: 0 }).get(key)!;
  const micro = (q: number) => Math.round(q * 1e6);
  for (const w of DEMO_WALLETS)
    for (const id of w.chains) {
      const chain = chainById(id)!;
      const keyOf = new Map(Object.keys(TOKENS).map((k) => [onChain(k, chain).address, k]));
      for (const [day, end] of [
        [d0, 'opening'],
        [d1, 'closing'],
      ] as const)
        for (const p of positionsOn(defaultHistory(1), w.address, chain, day))
          for (const l of p.legs) row(`${w.address}|${id}|${l.tokenCid}`)[end] += micro(l.qty);
      for (const p of declaredPositions(defaultHistory(1), w.address, chain))
        for (const l of p.legs) {
          const at = (day: number) => (held(p, day) ? micro(declaredQty(l, p.openDay, day)) : 0);
          row(`${w.address}|${id}|${onChain(l.key, chain).address}`).accrual += at(d1) - at(d0);
        }
      const h = historyOf(defaultHistory(1), w.address, chain);
      const { byIndex, spans } = positionEventsOf(h);
      const [i0, i1] = indexRange(h, (d0 + 1) * 86_400, (d1 + 1) * 86_400 - 1);
      for (let i = i0; i < i1; i++) {
        const t = transactionAt(h, i);
        if (t.status !== 1) continue;
        const e = byIndex.get(i);
        const span = e && spans.get(e.template)!;
        const isMove = span !== undefined && held(span, d0) !== held(span, d1);
        for (const d of t.details) {
          const r = row(`${w.address}|${id}|${d.token_cid}`);
          const q = micro(d.qty);
          const type = d.type as 'in' | 'out';
          let move: MoveKind | null = null;
          if (isMove) {
            // An opening sends the principal out and draws a debt in; a closing brings it back and repays the debt.
            const debt = e!.kind === 'open' ? type === 'in' : type === 'out';
            move = debt ? (type === 'in' ? 'debt_drawn' : 'debt_repaid') : type === 'out' ? 'moved_into_positions' : 'moved_out_of_positions';
            r.moved += type === 'out' ? q : -q;
            r.accrual -= type === 'out' ? q : -q;
          } else if (type === 'in') r.inflow += q;
          else r.outflow += q;
          transfers.push({
            wallet: w.address,
            chain: id,
            key: keyOf.get(d.token_cid)!,
            tokenCid: d.token_cid,
            day: Math.floor(Date.parse(t.date) / DAY_MS),
            type,
            qty: d.qty,
            move,
          });
        }
      }
    }
  return { rows, transfers };
}

/**
 * A lending position of the world on a day, from its declaration: its legs' quantities on the day,
 * the price model, the liquidation threshold the simulator declares; `key` is `wallet|chain|cid`.
 */
export interface WorldLoan {
  key: string;
  symbol: string;
  /** Collateral and debt quantities (debt as a positive amount) and their USD prices on the day. */
  supplyQty: number;
  debtQty: number;
  supplyPrice: number;
  debtPrice: number;
  threshold: number;
  /** supply value ÷ debt value: the collateral/debt ratio. */
  ratio: number;
  health: number;
  debtUsd: number;
  /** The collateral token's price at which the health is 1: debt ÷ (quantity × threshold). */
  liquidationPrice: number;
  /** How far the client's health may be from `health` by the service's rounding alone. */
  healthTolerance: number;
}

export function worldLoans(wallets: ReadonlyArray<{ address: string; chains: readonly string[] }>, date: string): WorldLoan[] {
  const day = Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  const out: WorldLoan[] = [];
  for (const w of wallets)
    for (const id of w.chains) {
      const chain = chainById(id)!;
      for (const p of declaredPositions(defaultHistory(1), w.address, chain)) {
        if (p.assetType !== 'lending' || day < p.openDay || day >= p.closeDay) continue;
        const supply = p.legs.find((l) => l.kind === 'supply')!;
        const borrow = p.legs.find((l) => l.kind === 'borrow')!;
        const supplyQty = declaredQty(supply, p.openDay, day);
        const debtQty = -declaredQty(borrow, p.openDay, day);
        const supplyPrice = priceOn(supply.key, day, chain.id);
        const debtPrice = priceOn(borrow.key, day, chain.id);
        const threshold = p.liqThreshold!;
        const supplyUsd = supplyQty * supplyPrice;
        const debtUsd = debtQty * debtPrice;
        const ratio = supplyUsd / debtUsd;
        // The service sends quantities to 6 decimals, values to the cent and the ratio to 4
        // decimals: the ratio it sends is within half its last digit of the ratio of the rounded
        // values, each of which is within half a cent (plus half a micro-unit's worth) of the true one.
        const valueError = (qty: number, price: number) => (0.005 + 5e-7 * price) / (qty * price);
        const ratioError = 5e-5 + ratio * (valueError(supplyQty, supplyPrice) + valueError(debtQty, debtPrice)) * 1.01;
        out.push({
          key: `${w.address}|${id}|${p.cid}`,
          symbol: onChain(supply.key, chain).symbol,
          supplyQty,
          debtQty,
          supplyPrice,
          debtPrice,
          threshold,
          ratio,
          health: ratio * threshold,
          debtUsd,
          liquidationPrice: debtUsd / (supplyQty * threshold),
          healthTolerance: ratioError * threshold,
        });
      }
    }
  return out;
}
