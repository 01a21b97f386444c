import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeProblem } from '../../bin/node-version.mjs';

/**
 * `folioscope` under a Node other than 24 says so and what to do, before it loads the native
 * driver (built for Node 24's ABI, which crashed an older Node with a segmentation fault, exit
 * 139, no message, and a 0-byte cache left behind).
 */
describe('the Node the command runs on', () => {
  it('is Node 24, or the command says which Node it needs and how to get it', () => {
    expect(nodeProblem('24.21.0')).toBeNull();
    for (const v of ['20.19.2', '22.12.0', '25.0.0', '18.0.0'])
      expect(nodeProblem(v)).toMatch(new RegExp(`needs Node 24; this is Node ${v.replace(/\./g, '\\.')}\\. Install Node 24`));
  });

  // The machine's own older Node, where there is one (Debian's is 20): the command as a user runs it.
  const system = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (p) => existsSync(p) && spawnSync(p, ['-p', 'process.versions.node']).stdout?.toString().trim().split('.')[0] !== '24',
  );
  it.runIf(system)('under an older Node, exits 1 with that message and creates nothing', () => {
    const dir = join(import.meta.dirname, '../../test-results/node-version');
    const r = spawnSync(system!, [join(import.meta.dirname, '../../bin/folioscope.mjs'), '--data-dir', dir, 'wallet', 'list'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Folioscope needs Node 24; this is Node \d+/);
    expect(existsSync(join(dir, 'demo.sqlite'))).toBe(false);
  });
});
