import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { withAuditOrigin } from '../../src/main/core/store/audit.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { updateWallet } from '../../src/main/core/store/wallets.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
let core: Core;
let shell: WebShell;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter({ now: () => SIM_NOW }), person: 'alice@laptop' });
  shell = await startWebShell({ core, rendererDir: RENDERER });
});
afterAll(async () => {
  await shell.close();
  await core.close();
});

/** One operation over HTTP, as the page's fetch sends it (its origin and its token cookie). */
async function api(op: string, input: unknown): Promise<{ status: number; body: { ok: boolean; result?: unknown; error?: Record<string, unknown> } }> {
  const res = await fetch(`${shell.appUrl}api/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: shell.origin, Cookie: `folio_token_${shell.port}=${shell.token}` },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: unknown; error?: Record<string, unknown> } };
}

describe('web shell: an edit on a stale version', () => {
  it('is answered 409 with who changed the record and when; a fresh one 200', async () => {
    await api('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });
    const [loaded] = (await api('wallets.list', undefined)).body.result as { address: string; version: number }[];
    expect(loaded!.version).toBeGreaterThan(0);

    // Someone else's edit meanwhile: bob's, from another session on the same cache (as the CLI's).
    const db = await cacheOf(core);
    withAuditOrigin('wallets.update', () => updateWallet(db, WALLET, { label: 'Operations' }), undefined, { person: 'bob@desktop', via: 'cli' });

    const stale = await api('wallets.update', { address: WALLET, label: 'Treasury', expectedVersion: loaded!.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      ok: false,
      error: {
        kind: 'conflict',
        field: 'expectedVersion',
        said: { code: 'edit.stale', values: { entity: 'wallet', name: 'Operations', person: 'bob@desktop' } },
      },
    });
    expect(String(stale.body.error!['message'])).toMatch(
      /^The wallet "Operations" was changed by bob@desktop at \d{4}-\d\d-\d\d \d\d:\d\d UTC since you opened it: reload it/,
    );
    const [after] = (await api('wallets.list', undefined)).body.result as { label: string; version: number }[];
    expect(after!.label).toBe('Operations');

    // Any other refusal stays 200 with its envelope, as before.
    expect((await api('wallets.update', { address: WALLET, label: 'x'.repeat(300) })).status).toBe(200);

    const fresh = await api('wallets.update', { address: WALLET, label: 'Treasury', expectedVersion: after!.version });
    expect(fresh.status).toBe(200);
    expect(fresh.body.result).toMatchObject({ label: 'Treasury' });
  });
});
