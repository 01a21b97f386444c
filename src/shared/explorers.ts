/**
 * Block explorers the app may open in the user's browser: https only, these hosts only.
 * The main process checks every URL against this list before shell.openExternal.
 */
export const EXPLORERS: Record<string, string> = {
  eth: 'https://etherscan.io',
  arb: 'https://arbiscan.io',
  op: 'https://optimistic.etherscan.io',
  base: 'https://basescan.org',
  matic: 'https://polygonscan.com',
  bsc: 'https://bscscan.com',
};

const ALLOWED_HOSTS = new Set(Object.values(EXPLORERS).map((u) => new URL(u).host));

export function explorerTxUrl(chain: string, txnHash: string): string | null {
  const base = EXPLORERS[chain];
  return base && /^0x[0-9a-fA-F]{64}$/.test(txnHash) ? `${base}/tx/${txnHash}` : null;
}

/** Whether a URL may be opened externally: https, an allowed explorer, no credentials. */
export function isAllowedExternalUrl(raw: string): boolean {
  return allowedExternalUrl(raw) !== null;
}

/**
 * The URL to open, serialised from what was checked, or null when it is not allowed. The
 * original string must never be passed on: `https://etherscan.io\@evil.com` parses here as
 * etherscan.io but another parser (the OS, a browser) may read it as evil.com.
 */
export function allowedExternalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'https:' && ALLOWED_HOSTS.has(url.host) && !url.username && !url.password ? url.href : null;
}
