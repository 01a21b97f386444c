/**
 * When a lending position counts as at risk of liquidation: its collateral covers its debt
 * by less than this margin once the liquidation threshold is applied. One rule for the
 * screens and the PDF report.
 */
export const RISK_MARGIN = 1.15;

/** Aave-style health: collateral/debt × liquidation threshold; below 1 can be liquidated. Unknown when either is. */
export function health(collateralDebtRatio: number | null, liqThreshold: number | null): number | null {
  return collateralDebtRatio === null || liqThreshold === null ? null : collateralDebtRatio * liqThreshold;
}

/** Unknown figures are not at risk here: the views and reports list them as unknown instead. */
export function isAtRisk(collateralDebtRatio: number | null, liqThreshold: number | null): boolean {
  const h = health(collateralDebtRatio, liqThreshold);
  return h !== null && h < RISK_MARGIN;
}
