import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('Electronegativity over src/main and src/preload', () => {
  it('finds nothing that is not justified in security/electronegativity-exclusions.json', () => {
    const res = spawnSync(process.execPath, [join(import.meta.dirname, '../../scripts/electronegativity.cjs')], { encoding: 'utf8', timeout: 120_000 });
    expect(res.stdout + res.stderr).toMatch(/all justified/);
    expect(res.status).toBe(0);
  });
});
