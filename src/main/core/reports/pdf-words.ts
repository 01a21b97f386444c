/**
 * The fixed texts of the PDFs (headings, column names, labels, the sentences around the
 * figures), in English: the source. pdf-words.de.ts is the German, typed `PdfWords` (every text
 * widened to `string`, every text function with the English one's arguments), so a missing or
 * extra text fails the typecheck and test/reports/pdf-words-de.test.ts an empty or untranslated
 * one. A `de-*` locale setting gives the German, any other the English (pdf-language.ts `pdfWords`).
 *
 * Texts take the figures already formatted (pdf-format.ts) and the counts as numbers, so a
 * language picks its own plural. What the service or the core sends as text (action types,
 * protocol names, a reconciliation problem, the pack's reasons, a spam explanation) stays as sent,
 * as it does on the screen (docs/design-notes.md, "Still English on a German screen").
 */
import type { ReconcileRow } from '../../../shared/model.ts';
import { inPositionsText, type ReconcileCounts, reconcileSummaryText } from '../../../shared/reconcile-summary.ts';
import { englishCoreSentences } from '../../../shared/core-sentences.ts';
import type { PdfFormat } from './pdf-format.ts';

const s = (n: number) => (n === 1 ? '' : 's');

export function english(f: PdfFormat) {
  const n = f.count;
  return {
    page: (i: number, of: number) => `Page ${n(i)} of ${n(of)}`,
    utc: (when: string) => `${when} UTC`,
    /** A member of the scope: its label, its address and its chain. */
    member: (label: string | null, wallet: string, chain: string) => `${label ? `${label} ` : ''}${wallet} on ${chain}`,
    /** The core's sentences said again in the document's language (src/shared/core-sentences.ts); English as the core writes them. */
    core: englishCoreSentences(n),
    columns: {
      wallet: 'Wallet',
      chain: 'Chain',
      token: 'Token',
      position: 'Position',
      status: 'Status',
      opening: 'Opening',
      closing: 'Closing',
      name: 'Name',
    },
    report: {
      docTitle: (group: string | null, date: string) => `Folioscope portfolio report${group ? ` (${group})` : ''} ${date}`,
      docSubject: (date: string, period: { from: string | null; to: string } | null) =>
        `Positions as of ${date}${period ? `, transactions ${period.from ?? '…'} to ${period.to}` : ''}`,
      footer: (date: string, fetched: string) => `Folioscope portfolio report · as of ${date} · data fetched up to ${fetched} UTC`,
      title: (group: string | null) => (group ? `Portfolio report: ${group}` : 'Portfolio report'),
      subtitle: (date: string, period: { from: string | null; to: string } | null) =>
        `Folioscope · positions as of ${date}${period ? ` · period ${period.from ?? 'start'} to ${period.to}` : ''}`,
      group: 'Group',
      groupValue: (name: string, members: number) => `${name} (${n(members)} member${s(members)}; figures over its members only)`,
      members: 'Members',
      wallets: 'Wallets',
      chains: 'Chains',
      asOf: 'As of',
      period: 'Period',
      periodValue: (from: string | null, to: string) => `${from ?? 'first cached date'} to ${to}`,
      periodNone: 'none (positions only)',
      dataFetched: 'Data fetched',
      fetchedValue: (from: string, to: string) => `${from} UTC to ${to} UTC, from the local cache`,
      summary: 'Summary',
      totalNav: 'Total NAV',
      principal: 'Principal',
      rewards: 'Rewards',
      partialMark: ' (partial)',
      incompleteMark: ' (incomplete)',
      spam: (count: number, claimed: string, listed: string, more: number) =>
        `${n(count)} spam token${s(count)} left out of every figure, claimed ${claimed}: ${listed}${more ? ` And ${n(more)} more.` : ''}`,
      spamItem: (symbol: string, member: string, claimed: string, why: string) => `${symbol} (${member}, ${claimed}): ${why}`,
      scopePartial: (missing: number, members: number, date: string, list: string) =>
        `Partial: ${n(missing)} of the ${n(members)} wallet chains of this report ${missing === 1 ? 'is' : 'are'} not cached at ${date}, so every total, allocation and table below leaves ${missing === 1 ? 'it' : 'them'} out: ${list}. Sync that date for ${missing === 1 ? 'it' : 'them'}, then export again.`,
      cachedAt: (dates: string[]) => ` (cached at ${dates.join(' and ')}; not used)`,
      neverCached: ' (never cached)',
      unreadable: (values: number) => `${n(values)} value${s(values)} the service sent could not be read; they are shown as "-" and left out of every total.`,
      moments: (chains: number) =>
        `The three views of ${n(chains)} wallet chain${s(chains)} (positions, by token, liquidity) are not of one moment: the service's snapshot changed between the requests, so those tables may not match one another.`,
      otherDay: 'a response was dated another day than asked.',
      quality: (said: string) => `Data quality: ${said} Details under "Data quality" below.`,
      positionsCount: (positions: number, counted: number | null, wallets: number, chains: number) =>
        `${n(positions)} positions across ${counted === null ? '' : `${n(counted)} of `}${n(wallets)} wallet${s(wallets)} and ${n(chains)} chain${s(chains)}. NAV in USD.`,
      allocation: 'Allocation',
      byAssetType: 'By asset type',
      byProtocol: 'By protocol',
      byChain: 'By chain',
      positions: 'Positions',
      protocol: 'Protocol',
      type: 'Type',
      principalCol: 'Principal',
      rewardsCol: 'Rewards',
      total: (value: string) => `Total ${value}`,
      risk: 'Liquidity and risk',
      lending: 'Lending: debt, collateral ratio and liquidation threshold',
      collateral: 'Collateral',
      debt: 'Debt',
      ratio: 'Ratio',
      liqThreshold: 'Liq. threshold',
      atRisk: 'AT RISK',
      ok: 'ok',
      locked: 'Locked positions: unlocks and voting power',
      lockedCol: 'Locked',
      unlocks: 'Unlocks (UTC)',
      votingPower: 'Voting power',
      pools: 'Liquidity pools: ownership and slippage',
      pool: 'Pool',
      holding: 'Holding',
      ownership: 'Ownership',
      maxSlippage: 'Max slippage',
      transactions: (from: string | null, to: string) => `Transactions, ${from ?? 'start'} to ${to}`,
      transactionsCount: (count: number) => `${n(count)} transactions in the period.`,
      transactionsIncomplete: (list: string, more: boolean) =>
        `Incomplete: these transactions may not be all of the period. ${list}${more ? '; …' : ''}. Sync again, then export again.`,
      transactionsComplete: 'Complete: every transaction of the period was synced and proved complete.',
      action: 'Action',
      transactionsCol: 'Transactions',
      failedCol: 'Failed',
      feesUsd: 'Fees (USD)',
      totalRow: 'Total',
      dateUtc: 'Date (UTC)',
      transfers: 'Transfers',
      counterparty: 'Counterparty',
      category: 'Category',
      fee: 'Fee',
      hash: 'Hash',
      failed: ' (failed)',
      byRule: ' (rule)',
      internal: ' (internal)',
      notListed: (count: number) => `${n(count)} more transactions are in the CSV export.`,
      dataQuality: 'Data quality',
      qualityIntro:
        'Values the service sent that could not be read (not a number, infinite, out of range). Each is stored as unknown and left out of totals; the rest of its response is used.',
      response: 'Response',
      where: 'Where',
      sent: 'Sent',
      provenance: 'Provenance of the data',
      provenanceIntro:
        'Every figure comes from these cached responses of the service: the request ID the service gave, when it was fetched, and the SHA-256 of the response body as received.',
      provenanceLine: (wallet: string, chain: string, endpoint: string, asOf: string, fetched: string, request: string) =>
        `${wallet} · ${chain} · ${endpoint} · as of ${asOf} · fetched ${fetched} UTC · request ${request}`,
      navOverDates: 'NAV over dates',
      fewDates: (count: number) =>
        `${n(count)} cached date${s(count)}: fill the history in the app (or folioscope sync --from … --to …) to chart NAV over dates.`,
      navSummary: (count: number, first: string, last: string, span: string) => `${n(count)} cached dates, ${first} to ${last}; ${span}.`,
      navPartial: (partial: number) =>
        ` ${n(partial)} date${s(partial)} lack a wallet chain: ${partial === 1 ? 'its' : 'their'} partial total${partial === 1 ? ' is' : 's are'} drawn as hollow marks, not joined to the line.`,
      noWholeDate: 'no date has every wallet chain cached',
      span: (from: string, to: string) => `from ${from} to ${to}`,
      wholeSpan: (from: string, fromDate: string, to: string, toDate: string) => `whole totals from ${from} (${fromDate}) to ${to} (${toDate})`,
      reconciliation: (from: string, to: string) => `Roll-forward reconciliation, ${from} to ${to}`,
      reconMethod: (from: string, flowsFrom: string, flowsTo: string, to: string) =>
        `Opening: underlying quantities of all positions at the end of ${from}. Flows: transfers of successful transactions dated ${flowsFrom} to ${flowsTo} (UTC). ` +
        `Closing: at the end of ${to}. Unexplained = closing - opening - inflow + outflow: interest, rebases, rewards and price-driven pool changes, or missing data. ` +
        'Share = |unexplained| / (inflow + outflow).',
      reconMoves: (count: number) =>
        `${n(count)} transaction(s) opened or closed the wallets' own positions (deposits, withdrawals, debt drawn or repaid): their transfers moved tokens between balances and positions and are not in the inflow or outflow.`,
      reconIncomplete: 'Incomplete: the rows marked "incomplete" rest on missing data.',
      problemsNotListed: (count: number) => `- and ${n(count)} more (see the CSV report "reconciliation").`,
      // The screen's verdict, in the same words and counts (src/shared/reconcile-summary.ts).
      reconComplete: (c: ReconcileCounts) => `Complete: ${reconcileSummaryText(c, n)}.${c.inPositions ? ` ${inPositionsText(c.inPositions, n)}.` : ''}`,
      inflow: 'Inflow',
      outflow: 'Outflow',
      unexplained: 'Unexplained',
      share: 'Share',
      reconStatus: { reconciled: 'reconciled', unexplained: 'unexplained', incomplete: 'incomplete', inPositions: 'in positions' } satisfies Record<
        ReconcileRow['status'] | 'inPositions',
        string
      >,
    },
    pack: {
      docTitle: (scope: string, from: string, to: string) => `Folioscope monthly pack (${scope}) ${from} to ${to}`,
      docSubject: (from: string, to: string) => `NAV roll-forward ${from} to ${to}`,
      footer: (scope: string, from: string, to: string, closed: boolean) => `Folioscope monthly pack · ${scope} · ${from} to ${to}${closed ? ' · closed' : ''}`,
      title: (scope: string) => `Monthly pack: ${scope}`,
      subtitle: (from: string, to: string) => `Folioscope · NAV from the end of ${from} to the end of ${to}`,
      wallets: 'Wallets',
      period: 'Period',
      periodValue: (from: string, flowsFrom: string, to: string) =>
        `opening at the end of ${from}; flows of successful transactions dated ${flowsFrom} to ${to} (UTC)`,
      status: 'Status',
      /** `by`: who closed it (null: a close made before closes named people, said as nothing). */
      closed: (at: string, hash: string, by: string | null) => `closed ${at} UTC${by ? ` by ${by}` : ''}: the figures as closed (data hash ${hash}…)`,
      open: 'open (not closed)',
      /** The four eyes on a close (issue 37 item 4): who prepared it and who approved (closed) it, when (UTC). */
      people: 'Prepared, approved',
      prepared: (at: string, by: string | null) => `prepared ${at} UTC${by ? ` by ${by}` : ''}`,
      approved: (at: string, by: string | null) => `approved ${at} UTC${by ? ` by ${by}` : ''}`,
      samePerson: 'prepared and approved by the same person',
      changedSinceClose: 'CHANGED SINCE CLOSE: the data behind these figures changed after the period was closed (the figures are as closed):',
      partial: 'PARTIAL: these figures leave something out:',
      rollForward: 'NAV roll-forward',
      line: 'Line',
      usd: 'USD',
      notCached: 'not cached',
      unknown: 'unknown',
      /** The roll-forward's lines by key (shared/pack.ts writes the English for the CSV). */
      lines: {
        opening: (from: string) => `Opening NAV (${from})`,
        received: 'Received (transfers in)',
        sent: 'Sent (transfers out)',
        protocol_moves: 'Trades and protocol moves (net)',
        internal: 'Internal transfers (net)',
        accruals: 'Rewards, accruals and fees (no transaction)',
        price_effect: 'Price effect',
        other: 'Positions not in the by-token view, and rounding',
        closing: (to: string) => `Closing NAV (${to})`,
        change: 'Change',
        moved_into_positions: 'Moved into own positions (deposits; no change in NAV)',
        moved_out_of_positions: 'Moved out of own positions (withdrawals; no change in NAV)',
        debt_drawn: 'Debt drawn into balances (no change in NAV)',
        debt_repaid: 'Debt repaid from balances (no change in NAV)',
      },
      method:
        'Flows are valued at the price the snapshots imply for the token (NAV / quantity in the by-token view of the scope on that chain) at the cached date nearest the transfer; a quantity change no transaction explains (interest, rewards, fees paid) at the closing price; the price effect is the rest of each token’s change. Tokens moved between the scope’s balances and its own positions (the deposit that opens one, the withdrawal that closes it, a debt drawn or repaid) are not flows: named after the change, at their days’ prices, they change no NAV.',
      spam: (transactions: number, held: number, claimed: string, openingHeld: number, openingClaimed: string) =>
        `Left out as spam (junk airdrops, address poisoning): ${n(transactions)} transaction${s(transactions)} of the month; ${n(held)} spam token${s(held)} held at the close, claimed ${claimed} (at the opening ${n(openingHeld)}, claimed ${openingClaimed}), in no figure above.`,
      unknownOutflows: (count: number) => `${n(count)} plain transfer${s(count)} out went to addresses neither in the address book nor watched.`,
      aToken: 'A token',
      unpriced: (token: string, chain: string, transfers: number) =>
        `${token} (${chain}): ${n(transfers)} transfer${s(transfers)} with no cached price, in no figure.`,
      allWallets: 'All wallets',
      uncategorised: 'Uncategorised',
      byCategory: 'Flows by category',
      byCounterparty: 'Flows by counterparty',
      noFlows: 'No flows in this period.',
      kind: 'Kind',
      kinds: { book: 'address book', wallet: 'watched wallet', unknown: 'UNKNOWN' },
      in: 'In',
      out: 'Out',
      net: 'Net',
      transfers: 'Transfers',
      unvalued: (count: number) => ` (+${n(count)} unvalued)`,
      byWallet: 'By wallet',
      byProtocol: 'By protocol',
      byChain: 'By chain',
      tokens: 'Tokens: values and the prices used',
      flows: 'Flows',
      accrual: 'Accrual',
      priceEffect: 'Price eff.',
      pricesOf: 'Prices of',
    },
  };
}

export type PdfWords = Texts<ReturnType<typeof english>>;
type Texts<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => R extends string ? string : R
    : T extends object
      ? { readonly [K in keyof T]: Texts<T[K]> }
      : T;
