import type { Core } from '../../src/main/core/app.ts';
import { health } from '../../src/shared/portfolio/risk.ts';
import { waitForJobs } from './jobs.ts';

/**
 * A real dip in the reference service's data: the lowest lending health of a wallet at each
 * date, as a core syncs and computes it. The tests that need "a health dip" find two dates
 * where the lowest health falls, and a threshold between them, instead of hard-coding what
 * the generated data happens to be.
 */
export async function lowestHealth(core: Core, wallet: string, date?: string): Promise<{ date: string; health: number }> {
  await waitForJobs(core, [await core.call('sync.positions', { wallet, ...(date && { date }) })]);
  const d = date ?? (await core.call('positions.dates', { wallet }))[0]!;
  const risk = await core.call('risk.lending', { date: d, wallet });
  const all = risk.positions.map((p) => health(p.collateralDebtRatio, p.liqThreshold)).filter((h): h is number => h !== null);
  if (!all.length) throw new Error(`No lending position of ${wallet} at ${d}: pick another wallet.`);
  return { date: d, health: Math.min(...all) };
}

/**
 * Two dates (the second one `to`, or the service's latest when omitted) where the wallet's
 * lowest health falls, and a threshold halfway: no position is below it at `from`, one is at `to`.
 */
export async function findHealthDip(
  probe: Core,
  wallet: string,
  candidates: readonly string[],
  to?: string,
): Promise<{ from: string; to: string; threshold: number; before: number; after: number }> {
  const after = await lowestHealth(probe, wallet, to);
  for (const from of candidates) {
    const before = await lowestHealth(probe, wallet, from);
    if (before.health > after.health * 1.002)
      return { from, to: after.date, threshold: Number(((before.health + after.health) / 2).toFixed(6)), before: before.health, after: after.health };
  }
  throw new Error(`No date among ${candidates.join(', ')} has a higher lowest health than ${after.date}.`);
}

/** Month ends of 2025, newest first: the dates the probes try. */
export const MONTH_ENDS = ['2025-11-30', '2025-10-31', '2025-09-30', '2025-08-31', '2025-07-31', '2025-06-30', '2025-05-31', '2025-04-30'];
