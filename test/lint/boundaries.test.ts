import { ESLint, Linter } from 'eslint';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import boundaries, { CORE_EDGES, corePartOf, layerOf, OPEN_PARTS } from '../../eslint/boundaries.js';
import { cyclesOf } from '../../eslint/cycles.js';

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
        "import { createCore } from '../core/index.ts';\nimport { CONTENT_SECURITY_POLICY } from '../shell-policy/renderer-policy.ts';",
      ),
    ).toEqual([]);
    expect(violations('src/renderer/src/lib/x.ts', "import { contract } from '../../../shared/contract.ts';\nimport { z } from 'zod';")).toEqual([]);
    // The simulator is the shells' to start (src/sim/demo.ts); the core has its Node built-ins.
    expect(violations('src/main/cli/index.ts', "import { startSimulator } from '../../sim/server.ts';")).toEqual([]);
    expect(violations('src/main/core/app.ts', "import { join } from 'node:path';")).toEqual([]);
    expect(violations('src/main/index.ts', "import { app } from 'electron';")).toEqual([]);
    expect(
      violations('src/main/folioscope.ts', "import { runProgram } from './cli/index.ts';\nimport { serveCommand } from './web/serve-command.ts';"),
    ).toEqual([]);
    expect(violations('src/main/folioscope.ts', "import { createWindow } from './electron/window.ts';")).toHaveLength(1);
  });

  it("lets a shell import the core through its face only (src/main/core/index.ts), never the core's other files", () => {
    // The imports the CLI, the web shell and the desktop app's start-up held before the face (issue 36).
    expect(violations('src/main/cli/index.ts', "import { moveCacheAside } from '../core/store/recovery.ts';")).toEqual([
      expect.stringMatching(/cli-shell imports the core through its face only: import 'src\/main\/core\/index.ts', not '..\/core\/store\/recovery.ts'/),
    ]);
    expect(violations('src/main/cli/commands/cache.ts', "import { encryptionStatus } from '../../core/session/encryption.ts';")).toHaveLength(1);
    expect(violations('src/main/web/downloads.ts', "import { downloadPath } from '../core/reports/export-job.ts';")).toHaveLength(1);
    expect(violations('src/main/electron/startup-choice.ts', "import type { Core } from '../core/app.ts';")).toHaveLength(1);
    expect(violations('src/main/index.ts', "const { selfCheck } = await import('./core/self-check.ts');")).toHaveLength(1);
    expect(violations('src/main/folioscope.ts', "import { createCore } from './core/app.ts';")).toHaveLength(1);
    // A capability's own face is still the core's inside: a shell goes through the core's face.
    expect(violations('src/main/web/x.ts', "export { describeCadence } from '../core/schedule/index.ts';")).toHaveLength(1);
    expect(
      violations(
        'src/main/cli/commands/cache.ts',
        "import { type Core, encryptionStatus } from '../../core/index.ts';\nimport type { CoreOptions } from '../../core/index.ts';",
      ),
    ).toEqual([]);
    expect(violations('src/main/index.ts', "import { createCore, selfCheck } from './core/index.ts';")).toEqual([]);
    // The face itself re-exports from the parts listed for it in CORE_EDGES, each through its own face.
    expect(violations('src/main/core/index.ts', "export { moveCacheAside } from './store/recovery.ts';\nexport { createCore } from './app.ts';")).toEqual([]);
    expect(violations('src/main/core/index.ts', "export { encryptionStatus } from './session/encryption.ts';")).toHaveLength(1);
    expect(violations('src/main/core/index.ts', "export { matches } from './annotations/index.ts';")).toHaveLength(1);
    // And it is the shells' alone: the core imports its parts, never its face.
    expect(violations('src/main/core/app.ts', "import type { Core } from './index.ts';")).toEqual([expect.stringMatching(/core's face .* is the shells'/)]);
  });

  it('keeps the core off the simulator: the shells inject the demo service', () => {
    expect(violations('src/main/core/app.ts', "import { startSimulator } from '../../sim/server.ts';")).toEqual([
      expect.stringMatching(/core must not import the sim/),
    ]);
    expect(violations('src/main/core/session/profile.ts', "import type { Simulator } from '../../../sim/server.ts';")).toHaveLength(1);
    expect(violations('src/main/core/sync/x.ts', "const { demoStarter } = await import('../../../sim/demo.ts');")).toHaveLength(1);
  });

  it('places core files in their parts', () => {
    expect(corePartOf(join(ROOT, 'src/main/core/app.ts'))).toBe('app.ts');
    expect(corePartOf(join(ROOT, 'src/main/core/store/wallets.ts'))).toBe('store');
    // A capability's own store files are the capability's, not the shared store's.
    expect(corePartOf(join(ROOT, 'src/main/core/analytics/store/reconcile.ts'))).toBe('analytics');
    expect(corePartOf(join(ROOT, 'src/main/core/store/migrations/006-hash-key.ts'))).toBe('store/migrations');
    expect(corePartOf(join(ROOT, 'src/main/core/jobs/queue.ts'))).toBe('jobs');
    expect(corePartOf(join(ROOT, 'src/main/cli/index.ts'))).toBeNull();
    expect(corePartOf(join(ROOT, 'src/main/core'))).toBeNull();
  });

  it('keeps the store off every other part of the core', () => {
    expect(violations('src/main/core/store/wallets.ts', "import type { ServiceResponse } from '../service/index.ts';")).toEqual([
      expect.stringMatching(/Inside the core, store must not import service .*may import store\/migrations/),
    ]);
    expect(violations('src/main/core/store/queries/x.ts', "import { JobQueue } from '../../jobs/queue.ts';")).toHaveLength(1);
    expect(violations('src/main/core/store/x.ts', "import { serializeError } from '../util/errors.ts';")).toHaveLength(1);
    expect(violations('src/main/core/store/x.ts', "export * from '../sync/engine.ts';")).toHaveLength(1);
    expect(violations('src/main/core/store/x.ts', "import { a } from './queries/reconcile.ts';\nimport { b } from '../../../shared/model.ts';")).toEqual([]);
  });

  it('keeps migrations off live code: they copy what they need', () => {
    expect(violations('src/main/core/store/migrations/006-hash-key.ts', "import { HASH_KEY } from '../hash-key.ts';")).toEqual([
      expect.stringMatching(/A migration must not import live code/),
    ]);
    expect(violations('src/main/core/store/migrations/x.ts', "import { PAGE_SIZE } from '../db.ts';")).toHaveLength(1);
    expect(violations('src/main/core/store/migrations/x.ts', "import type { Settings } from '../../../../shared/contract.ts';")).toHaveLength(1);
    expect(
      violations(
        'src/main/core/store/migrations/index.ts',
        "import { updateToSchemaVersion6 } from './006-hash-key.ts';\nimport type { Database } from 'better-sqlite3';",
      ),
    ).toEqual([]);
  });

  it('lets a part import only the parts listed for it, never upward', () => {
    // The job queue's old home: a report took it from the sync engine's folder.
    expect(violations('src/main/core/reports/export-job.ts', "import type { JobQueue } from '../sync/queue.ts';")).toEqual([
      expect.stringMatching(/reports must not import sync .*may import analytics, audit, closes, counterparties, handlers.ts, heap.ts, jobs, ledger, pack/),
    ]);
    expect(violations('src/main/core/sync/engine.ts', "import { exportCsv } from '../reports/csv-reports.ts';")).toHaveLength(1);
    expect(violations('src/main/core/service/client.ts', "import { upsertTransactions } from '../transactions/index.ts';")).toHaveLength(1);
    expect(violations('src/main/core/session/profile.ts', "import { createCore } from '../app.ts';")).toHaveLength(1);
    expect(violations('src/main/core/portfolio/x.ts', "import { reconcile } from '../reports/pdf-model.ts';")).toHaveLength(1);
    expect(violations('src/main/core/portfolio/x.ts', "import { checkAlerts } from '../alerts/check.ts';")).toHaveLength(1);
    // A folder the map does not know yet: it is given a line before it imports another part.
    expect(violations('src/main/core/journal/x.ts', "import { listWallets } from '../store/wallets.ts';")).toEqual([
      expect.stringMatching(/journal is not in the core's map of parts/),
    ]);
  });

  it("lets the core's listed edges through, and the composition root import any part", () => {
    expect(
      violations(
        'src/main/core/reports/export-job.ts',
        "import type { JobQueue } from '../jobs/index.ts';\nimport { listWallets } from '../store/wallets.ts';",
      ),
    ).toEqual([]);
    expect(violations('src/main/core/reports/pdf-model.ts', "import { portfolioAt } from '../portfolio/index.ts';")).toEqual([]);
    expect(
      violations(
        'src/main/core/portfolio/view.ts',
        "import type { ReadableDB } from '../store/db.ts';\nimport { positionTotals } from '../../../shared/portfolio/totals.ts';",
      ),
    ).toEqual([]);
    expect(
      violations('src/main/core/sync/engine.ts', "import { JobQueue } from '../jobs/index.ts';\nimport { createServiceClient } from '../service/index.ts';"),
    ).toEqual([]);
    expect(
      violations('src/main/core/app.ts', "import { portfolioAt } from './portfolio/index.ts';\nimport { startExport } from './reports/index.ts';"),
    ).toEqual([]);
  });

  it('enters another capability through its public face (index.ts) only; the store and util are open', () => {
    expect(violations('src/main/core/reports/pdf-model.ts', "import { reconcile } from '../analytics/store/reconcile.ts';")).toEqual([
      expect.stringMatching(/through its public face: import 'analytics\/index.ts'/),
    ]);
    expect(violations('src/main/core/sync/engine.ts', "import { upsertTransactions } from '../transactions/store/transactions.ts';")).toHaveLength(1);
    // The composition root too: it combines the capabilities' faces.
    expect(violations('src/main/core/app.ts', "import { transactionHandlers } from './transactions/handlers.ts';")).toHaveLength(1);
    expect(violations('src/main/core/sync/engine.ts', "import { upsertTransactions } from '../transactions/index.ts';")).toEqual([]);
    // Inside a capability, its own files; outside, the store's files (the store is no capability).
    expect(violations('src/main/core/transactions/sync.ts', "import { saveRange } from './store/transactions.ts';")).toEqual([]);
    expect(violations('src/main/core/transactions/sync.ts', "import { getWallet } from '../store/wallets.ts';")).toEqual([]);
  });

  it('finds every capability of the core with a face, and the faces name only their own files', () => {
    const core = join(ROOT, 'src/main/core');
    for (const part of readdirSync(core)) {
      if (!statSync(join(core, part)).isDirectory() || OPEN_PARTS.has(part)) continue;
      expect(CORE_EDGES, part).toHaveProperty([part]);
      const face = join(core, part, 'index.ts');
      if (!existsSync(face)) continue; // a capability only app.ts combines may have none yet
      for (const m of readFileSync(face, 'utf8').matchAll(/from '([^']+)'/g)) expect(m[1], `${part}/index.ts`).toMatch(/^\.\//);
    }
  });

  it("lists the core's edges without a cycle: each part sits above the parts it imports", () => {
    const parts = Object.keys(CORE_EDGES);
    const graph = new Map(Object.entries(CORE_EDGES).map(([p, to]) => [p, to === '*' ? parts.filter((q) => q !== p) : [...to]]));
    expect(cyclesOf(graph)).toEqual([]);
    // Every edge names a part the map knows.
    for (const [p, to] of graph) for (const q of to) expect(parts, `${p} → ${q}`).toContain(q);
    // The finder itself: a cycle of two, of three, and a self-import are found.
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
    expect(
      cyclesOf(
        new Map([
          ['x', ['y']],
          ['y', ['z']],
          ['z', ['x']],
        ]),
      ),
    ).toEqual([['x', 'y', 'z']]);
    expect(cyclesOf(new Map([['s', ['s']]]))).toEqual([['s']]);
  });

  it('is switched on as an error for the whole source tree by the project config', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['src/main/core/app.ts', 'src/renderer/src/App.svelte', 'src/shared/contract.ts', 'src/sim/server.ts']) {
      const config = await eslint.calculateConfigForFile(join(ROOT, file));
      expect(config.rules['folio/import-boundaries'], file).toEqual([2]);
    }
  });
});
