/**
 * When a lending position counts as at risk of liquidation: its collateral covers its debt
 * by less than this margin once the liquidation threshold is applied. One rule for the
 * screens and the PDF report.
 */
export const RISK_MARGIN = 1.15;

export function isAtRisk(collateralDebtRatio: number | null, liqThreshold: number | null): boolean {
  return collateralDebtRatio !== null && liqThreshold !== null && collateralDebtRatio * liqThreshold < RISK_MARGIN;
}
