import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from '../../eslint/cycles.js';
import { tempDir } from '../support/store.ts';

const ROOT = join(import.meta.dirname, '../..');

/**
 * The lint rule sees one import at a time; a cycle needs the whole graph. Every import of the
 * core's files is followed (type-only and dynamic ones too), and a cycle of any length fails.
 */
describe('import cycles inside the core', () => {
  it('finds none in src/main/core', () => {
    expect(importCycles(join(ROOT, 'src/main/core'))).toEqual([]);
  });

  it('finds one however it is spelled: a type-only import, a dynamic import, a path through another folder', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'store'));
    mkdirSync(join(dir, 'sync'));
    writeFileSync(join(dir, 'store/db.ts'), "import { announce } from './yield.ts';\nexport type DB = { x: number };\n");
    writeFileSync(join(dir, 'store/yield.ts'), "import type { DB } from './db.ts';\nexport const announce = (db: DB) => db;\n");
    writeFileSync(join(dir, 'sync/engine.ts'), "import { a } from '../store/../sync/steps.ts';\nexport const b = 1;\n");
    writeFileSync(join(dir, 'sync/steps.ts'), "export const a = 1;\nexport const later = () => import('./engine.ts');\n");
    writeFileSync(join(dir, 'leaf.ts'), "import { b } from './sync/engine.ts';\nimport { z } from 'zod';\n");
    expect(importCycles(dir)).toEqual([
      ['store/db.ts', 'store/yield.ts'],
      ['sync/engine.ts', 'sync/steps.ts'],
    ]);
  });
});
