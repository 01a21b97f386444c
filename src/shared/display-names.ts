/**
 * How the service's identifiers (protocol ids, asset types, action types) read on screen and
 * in reports: one rule for the app and the PDF, so "uniswap_v3" is "Uniswap V3" in both.
 */
export function displayName(s: string | null | undefined, missing = '—'): string {
  if (!s) return missing;
  // A version is written as the protocols write it in their own names ("Aave V3 WETH"), so the
  // Protocol column and a position's name agree (issue 39: "Aave v3" beside "Aave V3").
  return s
    .replace(/_/g, ' ')
    .replace(/^\w/, (c) => c.toUpperCase())
    .replace(/\bv(\d)/g, 'V$1');
}

/**
 * An action type as compared (issue 39, item 3): the stored value, its label as `displayName`
 * shows it ("Add liquidity" for add_liquidity) and any case or spacing of either are one key, so
 * a rule written as the screens spell a type matches the transactions of that type.
 */
export function actionTypeKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
}

/** The action types written that none of the known ones is (compared by key), as written. */
export function unknownActionTypes(written: readonly string[], known: readonly string[]): string[] {
  const keys = new Set(known.map(actionTypeKey));
  return written.map((a) => a.trim()).filter((a) => a && !keys.has(actionTypeKey(a)));
}
