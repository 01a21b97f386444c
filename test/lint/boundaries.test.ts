import { ESLint, Linter } from 'eslint';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import boundaries, { layerOf } from '../../eslint/boundaries.js';

const ROOT = join(import.meta.dirname, '../..');

/** Lints one made-up file at `path` (inside the real tree) with the boundary rule alone. */
function violations(path: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { folio: boundaries }, rules: { 'folio/import-boundaries': 'error' } }],
    { filename: join(ROOT, path) },
  );
  return messages.map((m) => m.message);
}

describe('the import walls', () => {
  it('places files in their layers', () => {
    expect(layerOf(join(ROOT, 'src/main/core/app.ts'))).toBe('core');
    expect(layerOf(join(ROOT, 'src/main/index.ts'))).toBe('electron-shell');
    expect(layerOf(join(ROOT, 'src/main/web/server.ts'))).toBe('web-shell');
    expect(layerOf(join(ROOT, 'src/renderer/src/App.svelte'))).toBe('renderer');
    expect(layerOf(join(ROOT, 'test/x.test.ts'))).toBeNull();
  });

  it('catches the core importing electron, a shell or the renderer', () => {
    expect(violations('src/main/core/sync/x.ts', "import { app } from 'electron';")).toEqual([expect.stringMatching(/core must not import 'electron'/)]);
    expect(violations('src/main/core/sync/x.ts', "import { startWebShell } from '../../web/server.ts';")).toEqual([
      expect.stringMatching(/core must not import the web-shell/),
    ]);
    expect(violations('src/main/core/x.ts', "export * from '../../renderer/src/lib/api.ts';")).toEqual([expect.stringMatching(/must not import the renderer/)]);
    expect(violations('src/main/core/x.ts', "const m = await import('../cli/index.ts');")).toEqual([expect.stringMatching(/must not import the cli-shell/)]);
  });

  it('catches a shell importing another shell, however the path is spelled', () => {
    expect(violations('src/main/electron/window.ts', "import { CONTENT_SECURITY_POLICY } from '../web/security.ts';")).toHaveLength(1);
    expect(violations('src/main/cli/index.ts', "import { x } from '../core/../web/server.ts';")).toHaveLength(1);
    expect(violations('src/main/web/server.ts', "import type { X } from '../electron/ipc.ts';")).toHaveLength(1);
  });

  it('keeps the renderer off src/main, shared code off Node built-ins, the simulator off src/main', () => {
    expect(violations('src/renderer/src/lib/x.ts', "import type { Core } from '../../../main/core/app.ts';")).toHaveLength(1);
    expect(violations('src/shared/x.ts', "import { readFileSync } from 'node:fs';")).toEqual([expect.stringMatching(/Node built-in 'node:fs'/)]);
    expect(violations('src/shared/x.ts', "import { join } from 'path';")).toHaveLength(1);
    expect(violations('src/sim/x.ts', "import { createCore } from '../main/core/app.ts';")).toHaveLength(1);
  });

  it('lets the allowed directions through', () => {
    expect(
      violations(
        'src/main/web/server.ts',
        "import { createCore } from '../core/app.ts';\nimport { CONTENT_SECURITY_POLICY } from '../shell-policy/renderer-policy.ts';",
      ),
    ).toEqual([]);
    expect(violations('src/renderer/src/lib/x.ts', "import { contract } from '../../../shared/contract.ts';\nimport { z } from 'zod';")).toEqual([]);
    expect(violations('src/main/core/app.ts', "import { startSimulator } from '../../sim/server.ts';\nimport { join } from 'node:path';")).toEqual([]);
    expect(violations('src/main/index.ts', "import { app } from 'electron';")).toEqual([]);
    expect(
      violations('src/main/folioscope.ts', "import { runProgram } from './cli/index.ts';\nimport { serveCommand } from './web/serve-command.ts';"),
    ).toEqual([]);
    expect(violations('src/main/folioscope.ts', "import { createWindow } from './electron/window.ts';")).toHaveLength(1);
  });

  it('is switched on as an error for the whole source tree by the project config', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/main/core/app.ts', 'src/renderer/src/App.svelte', 'src/shared/contract.ts', 'src/sim/server.ts']) {
      const config = await eslint.calculateConfigForFile(join(ROOT, file));
      expect(config.rules['folio/import-boundaries'], file).toEqual([2]);
    }
  });
});
