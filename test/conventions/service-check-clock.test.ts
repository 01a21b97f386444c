import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * One clock (issue 36): a core given a clock stamps the service check with it, as it stamps a
 * sync and an audited edit. The check was stamped by the machine's clock, so a pinned demo
 * showed "checked 29 Nov (in 9 days)" beside figures read against 20 Nov.
 */
describe('the service check, run through the core', () => {
  const made: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const c of made) await c.close();
  });

  it("is stamped by the core's clock, and kept so for the next read", async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', demo: demoStarter({ txnsPerWallet: 20, now: () => SIM_NOW }), now: () => SIM_NOW });
    made.push(core);
    const ran = await core.request('service.doctor', { run: true });
    expect(ran.checkedAt).toBe(new Date(SIM_NOW).toISOString());
    const kept = await core.request('service.doctor', undefined);
    expect(kept.checkedAt).toBe(new Date(SIM_NOW).toISOString());
  });
});
