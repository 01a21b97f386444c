import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { shoot } from '../support/browser.ts';

/**
 * axe-core in the page under test. The app's CSP allows only its own scripts, so the
 * source goes in through the DevTools protocol (page.evaluate), which CSP does not govern.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Serious and critical violations on the page as it is now (WCAG 2.1 A/AA and best practices). */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'minor', help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.targets }));
}

/** One line per finding, for a failure message a person can act on. */
export function describeFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map((f) => `${where}: ${f.impact} ${f.rule} (${f.help}) × ${f.targets.length}: ${f.targets.slice(0, 4).join(' | ')}`);
}

/** A screenshot in each theme, and axe-core in each: no serious or critical violation. Ends in light. */
export async function bothThemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
    await shoot(page, `${name}-${scheme}`);
    expect(describeFindings(`${name} (${scheme})`, await axeFindings(page))).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
