import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No screen asks for the whole portfolio view (issue 40 item 2): at a fund's scale it is hundreds
 * of megabytes of JSON; a screen asks for its summary, a page of its rows, or the part it shows
 * (test/e2e/summary-screens.test.ts watches the requests themselves). Every file of the renderer
 * is read; a file naming the operation in quotes asks for it.
 */
describe('no renderer code asks for the whole view', () => {
  it('no screen names `portfolio.view` as an operation', () => {
    const root = join(import.meta.dirname, '../../src/renderer');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|js|svelte|html)$/.test(f));
    expect(files.length).toBeGreaterThan(50);
    const calling = files.filter((f) => /['"`]portfolio\.view['"`]/.test(readFileSync(join(root, f), 'utf8')));
    expect(calling.sort()).toEqual([]);
  });
});
