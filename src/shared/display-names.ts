/**
 * How the service's identifiers (protocol ids, asset types, action types) read on screen and
 * in reports: one rule for the app and the PDF, so "uniswap_v3" is "Uniswap v3" in both.
 */
export function displayName(s: string | null | undefined, missing = '—'): string {
  if (!s) return missing;
  return s.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
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
