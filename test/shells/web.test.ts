import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { tempDir } from '../support/store.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { demoStarter } from '../../src/sim/demo.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
let core: Core;
let shell: WebShell;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter({ now: () => SIM_NOW }) });
  shell = await startWebShell({ core, rendererDir: RENDERER });
});
afterAll(async () => {
  await shell.close();
  await core.close();
});

/** A raw HTTP request, so Host and Origin can be set as an attacker would. */
function raw(
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: shell.port, path, method: o.method ?? 'GET', headers: { Host: `127.0.0.1:${shell.port}`, ...o.headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (o.body) req.write(o.body);
    req.end();
  });
}

const auth = () => ({ 'X-Folio-Token': shell.token });
/** The path the app lives under, `/s/<random>/`. */
const app = () => new URL(shell.appUrl).pathname;
const api = (op: string, input: unknown, headers: Record<string, string> = {}) =>
  raw(`${app()}api/${op}`, {
    method: 'POST',
    body: JSON.stringify(input),
    headers: { 'Content-Type': 'application/json', Origin: shell.origin, Cookie: `folio_token_${shell.port}=${shell.token}`, ...headers },
  });

describe('web shell: the gate', () => {
  it('listens on 127.0.0.1 and prints a URL with its token', () => {
    expect(shell.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${shell.port}/s/[A-Za-z0-9_-]{22}/\\?token=[A-Za-z0-9_-]{32}$`));
    expect(shell.url.startsWith(shell.appUrl)).toBe(true);
  });

  it('refuses any request without the token', async () => {
    expect((await raw('/')).status).toBe(401);
    expect((await raw('/assets/index.js')).status).toBe(401);
    expect((await raw('/api/wallets.list', { method: 'POST', headers: { Origin: shell.origin } })).status).toBe(401);
    expect((await raw('/api/events')).status).toBe(401);
    expect((await raw('/?token=wrong')).status).toBe(401);
    expect((await raw(app())).status).toBe(401);
    expect((await raw(`${app()}assets/index.js`)).status).toBe(401);
    expect((await raw(`${app()}api/wallets.list`, { method: 'POST', headers: { Origin: shell.origin } })).status).toBe(401);
    expect((await raw(`${app()}api/events`)).status).toBe(401);
    expect((await raw(`${app()}?token=wrong`)).status).toBe(401);
  });

  it("trades the token in the URL for a strict cookie scoped to the app's path and serves the app with its CSP", async () => {
    const first = await raw(`${app()}?token=${shell.token}`);
    expect(first.status).toBe(303);
    expect(first.headers['location']).toBe(app());
    const [kept, forgotten] = first.headers['set-cookie']!;
    expect(kept).toBe(`folio_token_${shell.port}=${shell.token}; HttpOnly; SameSite=Strict; Path=${app().slice(0, -1)}`);
    // The cookie an older version set at Path=/ (sent to every local port) is deleted.
    expect(forgotten).toBe(`folio_token_${shell.port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    // The token at the root (typed by hand) leads into the app too.
    expect((await raw(`/?token=${shell.token}`)).headers['location']).toBe(app());
    const page = await raw(app(), { headers: { Cookie: `folio_token_${shell.port}=${shell.token}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app">');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Without its last slash, the app's path leads to the app (its addresses are relative).
    const bare = await raw(app().slice(0, -1), { headers: { Cookie: `folio_token_${shell.port}=${shell.token}` } });
    expect([bare.status, bare.headers['location']]).toEqual([303, app()]);
  });

  it('refuses a wrong Host (DNS rebinding) and a foreign Origin, even with the token', async () => {
    expect((await raw('/', { headers: { ...auth(), Host: 'evil.example' } })).status).toBe(421);
    expect((await raw('/', { headers: { ...auth(), Host: `evil.example:${shell.port}` } })).status).toBe(421);
    expect((await api('wallets.list', {}, { Origin: 'https://evil.example' })).status).toBe(403);
    // A cross-site form post carries no custom header and a foreign or no Origin.
    expect((await raw(`${app()}api/wallets.list`, { method: 'POST', headers: { Cookie: `folio_token_${shell.port}=${shell.token}` } })).status).toBe(403);
  });

  it('does not serve files outside the renderer folder', async () => {
    expect((await raw(`${app()}../../package.json`, { headers: auth() })).body).not.toContain('"name": "folioscope"');
    expect((await raw(`${app()}%2e%2e/%2e%2e/package.json`, { headers: auth() })).body).not.toContain('"name": "folioscope"');
    expect((await raw(`${app()}..%2F..%2F..%2Fpackage.json`, { headers: auth() })).body).not.toContain('"name": "folioscope"');
    expect((await raw(`${app()}assets/nope.js`, { headers: auth() })).status).toBe(404);
    // Outside the app's path there is nothing, with the token or without.
    expect((await raw('/index.html', { headers: auth() })).status).toBe(404);
  });
});

describe('web shell: the contract over HTTP', () => {
  it('runs operations and validates their input', async () => {
    const info = JSON.parse((await api('app.info', {})).body);
    expect(info).toMatchObject({ ok: true, result: { mode: 'demo', shell: 'web' } });
    expect(JSON.stringify(info)).not.toMatch(/access_key|[0-9a-f]{32}/);
    const bad = JSON.parse((await api('wallets.add', { address: 'nope', chains: ['eth'] })).body);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'validation', field: 'address' } });
    const added = JSON.parse((await api('wallets.add', { address: WALLET, chains: ['eth'], label: 'Web' })).body);
    expect(added).toMatchObject({ ok: true, result: { address: WALLET, label: 'Web' } });
    expect(
      JSON.parse((await raw(`${app()}api/wallets.list`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' } })).body).result,
    ).toHaveLength(1);
  });

  it('streams events to subscribers', async () => {
    const abort = new AbortController();
    const res = await fetch(`${shell.appUrl}api/events`, { headers: auth(), signal: abort.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    // Once connected, start a job and read until its progress arrives.
    await api('sync.positions', { wallet: WALLET, date: '2025-01-01' });
    while (!/event: sync\.progress\ndata: \{"id":"job-\d+"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    expect(text).toMatch(/event: sync\.progress\ndata: \{"id":"job-\d+"/);
    expect(text).toMatch(/event: data\.changed|event: sync\.progress/);
  });
});
