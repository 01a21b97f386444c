/**
 * What the user is looking at lives in the URL hash (`#/timeline?wallet=…&action=swap`),
 * so back and forward work and a view can be reloaded as it was.
 */
import type { PositionsView } from '../../../shared/contract.ts';

export type Tab = 'overview' | 'positions' | 'timeline' | 'reconcile' | 'risk' | 'pack' | 'book';
export type View = PositionsView;
export type Range = '30d' | '90d' | '1y' | 'all';

export interface Route {
  tab: Tab;
  wallet: string | null;
  date: string | null;
  view: View;
  compare: string | null;
  /** Positions: the earlier cached date each row's change is counted from (issue 39, item 4). */
  since: string | null;
  /** Positions by position: rows under a header per protocol, each with its subtotal. */
  byProtocol: boolean;
  range: Range;
  action: string[];
  protocol: string[];
  chain: string[];
  token: string[];
  status: string[];
  from: string | null;
  to: string | null;
  q: string | null;
  /** A wallet group's id: the scope of the treasury views (Reconcile, Risk). */
  group: string | null;
  /** The timeline's category filter (names), and whether it takes the uncategorised too. */
  category: string[];
  uncategorised: boolean;
  /** The timeline hides the transactions judged spam (else it shows them dimmed: nothing disappears unasked). */
  hideSpam: boolean;
}

const TABS: Tab[] = ['overview', 'positions', 'timeline', 'reconcile', 'risk', 'pack', 'book'];
const LISTS = ['action', 'protocol', 'chain', 'token', 'status', 'category'] as const;

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const p = new URLSearchParams(query);
  const tab = (TABS as string[]).includes(path) ? (path as Tab) : 'overview';
  const list = (k: string) => (p.get(k) ? p.get(k)!.split(',').filter(Boolean) : []);
  const view = p.get('view');
  const range = p.get('range');
  return {
    tab,
    wallet: p.get('wallet'),
    date: p.get('date'),
    view: view === 'underlying' || view === 'liquidity' ? view : 'all',
    compare: p.get('compare'),
    since: p.get('since'),
    byProtocol: p.get('by') === 'protocol',
    range: range === '30d' || range === '90d' || range === 'all' ? range : '1y',
    action: list('action'),
    protocol: list('protocol'),
    chain: list('chain'),
    token: list('token'),
    status: list('status'),
    from: p.get('from'),
    to: p.get('to'),
    q: p.get('q'),
    group: p.get('group'),
    category: list('category'),
    uncategorised: p.get('uncategorised') === '1',
    hideSpam: p.get('spam') === 'hide',
  };
}

export function formatRoute(r: Route): string {
  const p = new URLSearchParams();
  if (r.wallet) p.set('wallet', r.wallet);
  if (r.date) p.set('date', r.date);
  if (r.tab === 'positions') {
    if (r.view !== 'all') p.set('view', r.view);
    if (r.compare) p.set('compare', r.compare);
    if (r.since) p.set('since', r.since);
    if (r.byProtocol) p.set('by', 'protocol');
  }
  if (r.tab === 'overview' && r.range !== '1y') p.set('range', r.range);
  if (r.tab === 'timeline') {
    for (const k of LISTS) if (r[k].length) p.set(k, r[k].join(','));
    if (r.from) p.set('from', r.from);
    if (r.to) p.set('to', r.to);
    if (r.q) p.set('q', r.q);
    if (r.uncategorised) p.set('uncategorised', '1');
    if (r.hideSpam) p.set('spam', 'hide');
  }
  // The roll-forward's (and the monthly pack's) opening and closing dates: the closing one is its
  // own (`to`), else the as-of date (`date`), which picking the period never moves.
  if (r.tab === 'reconcile' || r.tab === 'pack') {
    if (r.from) p.set('from', r.from);
    if (r.to) p.set('to', r.to);
  }
  if (r.group && !r.wallet) p.set('group', r.group);
  const q = p.toString();
  return `#/${r.tab}${q ? `?${q}` : ''}`;
}

class RouteState {
  #current = $state<Route>(parseRoute(typeof location === 'undefined' ? '' : location.hash));

  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('hashchange', () => {
        this.#current = parseRoute(location.hash);
      });
    }
  }

  /** The route shown now; change it with `go` (or the browser's Back and Forward). */
  get current(): Route {
    return this.#current;
  }

  /** Goes to a route changed by `changes`; a new history entry, so Back returns. */
  go(changes: Partial<Route>, options: { replace?: boolean } = {}): void {
    const next = { ...this.#current, ...changes };
    const hash = formatRoute(next);
    this.#current = parseRoute(hash);
    if (typeof window === 'undefined') return;
    if (options.replace) history.replaceState(null, '', hash);
    else if (location.hash !== hash) history.pushState(null, '', hash);
  }
}

export const route = new RouteState();
