import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Findings (web shell): oversize bodies got a reset instead of 413; the token cookie was
 * shared by every loopback port (a second shell logged the first out); server-sent events
 * ignored back-pressure (a slow client grew memory without end); a malformed % escape was a 500.
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer');
let core: Core;
let shell: WebShell;
let second: WebShell;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }) });
  shell = await startWebShell({ core, rendererDir: RENDERER, maxEventBacklog: 64 * 1024 });
  second = await startWebShell({ core, rendererDir: RENDERER });
});
afterAll(async () => {
  await second?.close();
  await shell?.close();
  await core?.close();
});

function raw(s: WebShell, path: string, o: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, method: o.method ?? 'GET', headers: { Host: `127.0.0.1:${s.port}`, ...o.headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    if (o.chunked && o.body) {
      // Sent in pieces without a Content-Length, as a streaming client would.
      const buf = Buffer.from(o.body);
      for (let i = 0; i < buf.length; i += 64 * 1024) req.write(buf.subarray(i, i + 64 * 1024));
    } else if (o.body) req.write(o.body);
    req.end();
  });
}

const api = (s: WebShell) => ({ Origin: s.origin, 'X-Folio-Token': s.token, 'Content-Type': 'application/json' });
/** The path a shell's app lives under, `/s/<random>/`. */
const app = (s: WebShell) => new URL(s.appUrl).pathname;

describe('web shell limits', () => {
  it('an oversize body gets a 413 answer, not a reset (declared or streamed)', async () => {
    const big = JSON.stringify({ label: 'x'.repeat(2 * 1024 * 1024) });
    const declared = await raw(shell, `${app(shell)}api/settings.get`, { method: 'POST', headers: api(shell), body: big });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatch(/Request too large/);
    const streamed = await raw(shell, `${app(shell)}api/settings.get`, {
      method: 'POST',
      headers: { ...api(shell), 'Transfer-Encoding': 'chunked' },
      body: big,
      chunked: true,
    });
    expect(streamed.status).toBe(413);
    // The server is still fine.
    expect((await raw(shell, `${app(shell)}api/settings.get`, { method: 'POST', headers: api(shell), body: '{}' })).status).toBe(200);
  });

  it('each server has its own cookie name and path: a second shell does not log the first out', async () => {
    // A browser keeps cookies by host, name and path, not port (RFC 6265): the jar is shared.
    const jar = new Map<string, string>();
    for (const s of [shell, second]) {
      const r = await raw(s, new URL(s.url).pathname + new URL(s.url).search);
      expect(r.status).toBe(303);
      const [pair] = String(r.headers['set-cookie']).split(';');
      const [name, value] = pair!.split('=');
      jar.set(name!, value!);
    }
    expect(app(shell)).not.toBe(app(second));
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    expect((await raw(shell, app(shell), { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await raw(second, app(second), { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('malformed % escapes are 400, not 500', async () => {
    const cookie = { Cookie: `folio_token_${shell.port}=${shell.token}` };
    expect((await raw(shell, `${app(shell)}%E0%A4%A`, { headers: cookie })).status).toBe(400);
    expect((await raw(shell, `${app(shell)}assets/%ZZ.js`, { headers: cookie })).status).toBe(400);
    expect((await raw(shell, `${app(shell)}api/download/%`, { headers: cookie })).status).toBe(400);
    expect((await raw(shell, `${app(shell)}api/wallets.list%`, { method: 'POST', headers: api(shell), body: '{}' })).status).toBe(400);
  });

  it('a client that does not read its event stream is dropped, not buffered without end', { timeout: 180_000 }, async () => {
    const socket = connect(shell.port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let received = 0;
    let closed = false;
    socket.on('data', (d) => (received += d.length));
    socket.on('close', () => (closed = true));
    socket.write(`GET ${app(shell)}api/events HTTP/1.1\r\nHost: 127.0.0.1:${shell.port}\r\nX-Folio-Token: ${shell.token}\r\n\r\n`);
    for (let i = 0; i < 100 && shell.eventStreams() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(shell.eventStreams()).toBe(1);
    socket.pause(); // a client that stops reading
    let sent = 0;
    const frame = 'event: data.changed\ndata: {"scope":"settings"}\n\n'.length;
    // Until the server drops it (kernel buffers take the first megabytes), or 16 MB at most.
    for (let i = 0; i < 320_000 && shell.eventStreams() > 0; i++) {
      await core.call('settings.update', { theme: i % 2 ? 'dark' : 'light' });
      sent += frame;
    }
    expect(shell.eventStreams()).toBe(0);
    socket.resume();
    for (let i = 0; i < 200 && !closed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(true);
    expect(received).toBeLessThan(sent);
  });
});
