/**
 * The UI's words, in one place so they can be translated later. Numbers, dates and relative
 * times are not here: they follow the locale setting through lib/format.ts.
 */
export const words = {
  app: 'Folioscope',
  skipToContent: 'Skip to content',
  tabs: { overview: 'Overview', positions: 'Positions', timeline: 'Timeline', reconcile: 'Reconcile', risk: 'Risk' },
  views: 'Views',
  wallets: 'Wallets',
  watchedWallets: 'Watched wallets',
  allWallets: 'All wallets',
  addWallet: 'Add wallet',
  editWallet: 'Edit wallet',
  collapseSidebar: 'Collapse the wallet list',
  expandSidebar: 'Show the wallet list',
  settings: 'Settings',
  syncNow: 'Sync now',
  tryAgain: 'Try again',
  demoData: 'Demo data',
  offlineBadge: 'Offline — cached data',
  offlineReason: 'Offline: the service could not be reached. “Sync now” tries again.',
  notCached: 'not cached',
  cached: 'cached',
  shortcuts: 'Keyboard shortcuts',
  sync: {
    never: 'Not synced yet',
    failed: 'Sync failed',
    synced: 'Synced',
    syncing: 'Syncing',
    offline: 'Offline — cached',
    indexing: 'recent transactions still indexing',
  },
  firstRun: {
    title: 'Watch a wallet to begin',
    body: 'Add a wallet address and its chains; Folioscope fetches its positions and transactions and keeps them for offline use.',
    demoTitle: 'Or try a demo wallet',
    demoBody: 'Demo mode uses the built-in reference service with generated data. Add one of these to look around:',
  },
  timeline: {
    label: 'Transactions, newest first',
    columns: { time: 'Time', action: 'Action', moved: 'Tokens moved', where: 'Protocol · chain', wallet: 'Wallet', fee: 'Fee (USD)', status: 'Status' },
    noMatch: 'No transaction matches these filters',
    noMatchSearch: (q: string) => `No transaction matches “${q}”`,
    noMatchHint: 'Change or clear the filters.',
    none: 'No transactions cached',
  },
  health: {
    safe: 'safe',
    atRisk: 'at risk',
    meaning: (margin: string) =>
      `Health = collateral ÷ debt × liquidation threshold. Below 1 the position can be liquidated; below ${margin} it is marked at risk.`,
  },
} as const;
