import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * Cancellation across the contract, in the web shell: a page that stops wanting an answer
 * aborts its request; the connection closes and the core's work is told to stop (the signal
 * its dispatch gets). The core is the real one; the test only watches the signal it is given
 * and holds the answer back until the request is gone, as a long view would.
 */
let core: Core;
let shell: WebShell;
const seen: Array<{ op: string; signal: AbortSignal | undefined }> = [];

beforeAll(async () => {
  const real = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter({ now: () => SIM_NOW }) });
  core = {
    ...real,
    async dispatch(op, input, options) {
      seen.push({ op, signal: options?.signal });
      // A long piece of work: it lasts until its caller is gone (or 5 s).
      if (op === 'portfolio.view')
        await new Promise<void>((resolve) => {
          options?.signal?.addEventListener('abort', () => resolve(), { once: true });
          setTimeout(resolve, 5000).unref();
        });
      return real.dispatch(op, input, options);
    },
  };
  shell = await startWebShell({ core, rendererDir: join(import.meta.dirname, '../../out/renderer') });
});
afterAll(async () => {
  await shell?.close();
  await core?.close();
});

function post(op: string, body: unknown): { req: ReturnType<typeof request>; answered: Promise<number | null> } {
  const data = JSON.stringify(body);
  const path = `${new URL(shell.appUrl).pathname}api/${op}`;
  let answered!: (status: number | null) => void;
  const promise = new Promise<number | null>((resolve) => (answered = resolve));
  const req = request(
    {
      host: '127.0.0.1',
      port: shell.port,
      path,
      method: 'POST',
      headers: { Host: `127.0.0.1:${shell.port}`, Origin: shell.origin, 'X-Folio-Token': shell.token, 'Content-Type': 'application/json' },
    },
    (res) => {
      res.resume();
      answered(res.statusCode ?? null);
    },
  );
  req.on('error', () => answered(null));
  req.end(data);
  return { req, answered: promise };
}

describe('the web shell passes a closed request on to the core as a cancellation', () => {
  it('a request aborted by its page: the core is told to stop', async () => {
    const { req, answered } = post('portfolio.view', { date: '2025-12-31' });
    await expect.poll(() => seen.filter((s) => s.op === 'portfolio.view').length).toBe(1);
    const { signal } = seen.find((s) => s.op === 'portfolio.view')!;
    expect(signal?.aborted).toBe(false);
    req.destroy();
    await expect.poll(() => signal?.aborted).toBe(true);
    expect(await answered).toBeNull();
  });

  it('a request its page waits for is answered, its signal never aborted', async () => {
    const { answered } = post('wallets.list', undefined);
    expect(await answered).toBe(200);
    expect(seen.find((s) => s.op === 'wallets.list')?.signal?.aborted).toBe(false);
  });
});
