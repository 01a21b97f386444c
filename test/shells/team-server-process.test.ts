/**
 * The team server as an operator runs it, processes all: `server init` (the password from
 * standard input), `users add|list|token`, `server` refusing a network address without TLS, and
 * `server` over TLS with a certificate made by openssl for the test: the Secure `__Host-` cookie,
 * a bearer token from a script.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

const dir = tempDir();
const at = ['--data-dir', dir];
const PASSWORD = 'correct horse battery';
const started: { kill(): void }[] = [];
afterAll(() => started.forEach((c) => c.kill()));

function https(url: string, ca: Buffer, o: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', ca, headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

describe('folioscope server and users, as processes', () => {
  let token = '';

  it('server init makes the first owner from standard input, once', () => {
    const init = runCliSync([...at, 'server', 'init'], { input: `olive\n${PASSWORD}\n` });
    expect(init.stderr).toBe('');
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('olive is the owner.');
    const again = runCliSync([...at, 'server', 'init', '--name', 'otto'], { env: { FOLIOSCOPE_OWNER_PASSWORD: PASSWORD } });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already has people');
  });

  it('users add (password from the environment, at least 12 characters), list and a token no higher than its owner', () => {
    const short = runCliSync([...at, 'users', 'add', 'pia', '--role', 'preparer'], { env: { FOLIOSCOPE_USER_PASSWORD: 'short' } });
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    expect(runCliSync([...at, 'users', 'add', 'pia', '--role', 'preparer'], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(0);
    expect(runCliSync([...at, 'users', 'add', 'ray', '--role', 'boss'], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(2);
    const list = runCliSync([...at, 'users', 'list']);
    expect(list.stdout).toMatch(/olive\towner\tactive/);
    expect(list.stdout).toMatch(/pia\tpreparer\tactive/);
    const high = runCliSync([...at, 'users', 'token', 'pia', '--role', 'owner']);
    expect(high.status).toBe(1);
    expect(high.stderr).toContain('no higher than its owner');
    const made = runCliSync([...at, 'users', 'token', 'pia', '--role', 'viewer', '--label', 'cron']);
    expect(made.status).toBe(0);
    token = made.stdout.trim();
    expect(token).toMatch(/^fst_[A-Za-z0-9_-]{43}$/);
    // Kept hashed: the token itself is in no file of the data folder.
    const found = spawnSync('grep', ['-rl', token, dir], { encoding: 'utf8' });
    expect(found.stdout).toBe('');
    expect(found.status).toBe(1); // grep: nothing found

    // A second token, revoked: listed, then gone, and the trail says who made and ended it.
    const spare = runCliSync([...at, 'users', 'token', 'pia', '--role', 'viewer', '--label', 'spare']);
    expect(spare.status, spare.stderr).toBe(0);
    const listed = runCliSync([...at, 'users', 'tokens', 'pia'])
      .stdout.trim()
      .split('\n');
    const id = listed.find((l) => l.includes('\tspare\t'))!.split('\t')[0]!;
    const revoked = runCliSync([...at, 'users', 'revoke-token', 'pia', id]);
    expect(revoked.stdout.trim()).toBe(`Token ${id} revoked.`);
    expect(runCliSync([...at, 'users', 'revoke-token', 'pia', id]).status).toBe(1);
    expect(runCliSync([...at, 'users', 'tokens', 'pia']).stdout).not.toContain('spare');
    const trail = JSON.parse(runCliSync([...at, 'audit', '--json']).stdout) as Array<{
      entity: string;
      action: string;
      key: string;
      before: unknown;
      origin: string;
    }>;
    const ended = trail.filter((e) => e.entity === 'api-token' && e.action === 'delete');
    expect(ended).toMatchObject([{ key: `pia#${id}`, origin: 'users.revoke-token', before: { person: 'pia', role: 'viewer', label: 'spare' } }]);
  });

  it('refuses a network address without TLS or a proxy, before opening anything', () => {
    const r = runCliSync([...at, 'server', '--host', '0.0.0.0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Refusing to serve 0.0.0.0 over plain HTTP');
  });

  it('refuses a request rate that is not a whole number from 1 to 10000, before opening anything', () => {
    for (const bad of ['0', '-1', '10001', '0x10']) {
      const r = runCliSync([...at, 'server', '--requests-per-second', bad]);
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toContain('--requests-per-second must be a whole number from 1 to 10000');
    }
  });

  it('serves over TLS with a certificate made for the test: a Secure __Host- cookie, and a script with its token', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const ca = readFileSync(cert);
    // Any free port (a fixed one may be held by another test's connection): the origin says which.
    const server = startCli([...at, 'server', '--port', '0', '--tls-cert', cert, '--tls-key', key]);
    started.push(server.child);
    const origin = await firstLine(server.child, 'server');
    expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const page = await https(`${origin}/sign-in`, ca);
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const signIn = await https(`${origin}/sign-in`, ca, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ name: 'pia', password: PASSWORD }).toString(),
    });
    expect(signIn.status).toBe(303);
    expect(String(signIn.headers['set-cookie'])).toMatch(/^__Host-folio_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    const listed = await https(`${origin}/api/wallets.list`, ca, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({ ok: true });
    const edit = await https(`${origin}/api/groups.save`, ca, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'x', wallets: [] }),
    });
    expect(edit.status).toBe(403);
    server.child.kill('SIGTERM');
    expect((await server.done).status).toBe(0);
  });

  it('--requests-per-second holds a person to it: past the burst, a script is told to slow down', async () => {
    const server = startCli([...at, 'server', '--port', '0', '--requests-per-second', '1']);
    started.push(server.child);
    const origin = await firstLine(server.child, 'server');
    const statuses = new Map<number, number>();
    let said = '';
    // The burst (240: the default's, as six seconds of 1 a second is less), then a few more: at one a second, refused.
    for (let i = 0; i < 260; i++) {
      const res = await fetch(`${origin}/api/wallets.list`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: '' });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const body = (await res.json()) as { error?: { said?: { code: string } } };
      if (res.status === 429) said = body.error?.said?.code ?? '';
    }
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(said).toBe('team.slowDown');
    server.child.kill('SIGTERM');
    expect((await server.done).status).toBe(0);
  });
});
