/**
 * The desktop on a team server (issue 37 item 7; src/main/team-client/client.ts): the main
 * process's team client against the real team server run as a process, with the real OS keychain
 * (gnome-keyring: run under scripts/with-keyring.sh). A preparer signs in with her name and
 * password (exchanged once for a token kept in the keychain, nowhere in the data folder); her edit
 * lands on the server with her name in its audit trail; the server stopped, the desktop shows the
 * server's last copy read-only with its time and refuses edits saying why; the server back, it is
 * live again; signing out revokes the token and keeps the copy. A copy that does not check out
 * never replaces the one kept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { systemKeychain, type Keychain } from '../../src/main/core/index.ts';
import { REPLICA_MAX_AGE_MS, startTeamClient, TEAM_TOKEN_SERVICE, type TeamClient } from '../../src/main/team-client/client.ts';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

const PASSWORD = 'correct horse battery';
const ctx = useSimulator();
const serverDir = tempDir();
const desktopDir = tempDir();
const noKeychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
let origin = '';
let port = 0;
let server: ReturnType<typeof startCli> | null = null;
let local: Core;
let client: TeamClient;
const keychain = systemKeychain(TEAM_TOKEN_SERVICE);

async function startServer(): Promise<void> {
  server = startCli(['--data-dir', serverDir, 'server', '--port', String(port)], { FOLIOSCOPE_ACCESS_KEY: '' });
  origin = await firstLine(server.child, 'folioscope server');
  port = Number(new URL(origin).port);
}
async function stopServer(): Promise<void> {
  const s = server!;
  server = null;
  s.child.kill();
  await s.done;
}

/** Every file of the desktop's data folder, read whole (to search for a secret). */
function everyFile(dir: string): Buffer[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile())
    .map((p) => readFileSync(p));
}

beforeAll(async () => {
  expect(process.env['DBUS_SESSION_BUS_ADDRESS'], 'run under scripts/with-keyring.sh').toBeTruthy();
  const at = ['--data-dir', serverDir];
  expect(runCliSync([...at, 'server', 'init', '--name', 'olive'], { env: { FOLIOSCOPE_OWNER_PASSWORD: PASSWORD } }).status).toBe(0);
  expect(runCliSync([...at, 'users', 'add', 'pia', '--role', 'preparer'], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(0);
  for (const name of ['lou', 'max'])
    expect(runCliSync([...at, 'users', 'add', name, '--role', 'viewer'], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(0);
  await startServer();
  local = await createCore({
    dataDir: desktopDir,
    shell: 'web',
    baseUrl: ctx.sim.url,
    env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: ctx.sim.url },
    keychain: noKeychain,
    cacheKeychain: noKeychain,
    scheduleEveryMs: 0,
  });
  client = await startTeamClient({
    dataDir: desktopDir,
    local,
    keychain,
    device: 'test-laptop',
    retryEveryMs: 0,
    openReplica: (replica) => createCore({ dataDir: desktopDir, shell: 'web', keychain: noKeychain, cacheKeychain: noKeychain, scheduleEveryMs: 0, replica }),
  });
  // Four CLI processes and a server: beyond the default 30 s on a loaded machine (the tests were then skipped).
}, 180_000);
afterAll(async () => {
  await client?.close();
  await local?.close();
  if (server) await stopServer();
});

describe('the desktop signed in to a team server', () => {
  let token = '';

  it('starts on its own books, signed out', async () => {
    expect(client.status()).toMatchObject({ state: 'signedOut', origin: null, person: null });
    // Settings → Team asks through the contract: the shell's client answers; a core alone has none.
    expect(await client.core.request('team.status', undefined)).toMatchObject({ available: true, state: 'signedOut' });
    expect(await local.request('team.status', undefined)).toMatchObject({ available: false });
    const alone = await local.dispatch('team.signIn', { origin, name: 'pia', password: PASSWORD });
    expect(alone.ok || alone.error.said?.code).toBe('team.desktopOnly');
    expect(await client.core.request('app.info', undefined)).not.toHaveProperty('replica');
  });

  it('refuses a wrong password with the sign-in page’s sentence, and a page asking for a token', async () => {
    const wrong = await client.core.dispatch('team.signIn', { origin, name: 'pia', password: 'not her password at all' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toBe('That name and password do not match.');
    const fromPage = await fetch(`${origin}/api/device-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ name: 'pia', password: PASSWORD }),
    });
    expect(fromPage.status).toBe(403);
    expect(client.status().state).toBe('signedOut');
  });

  it('counts its failures in the sign-in lock-out: after five, even the right password waits', async () => {
    for (let i = 0; i < 5; i++) await expect(client.signIn(origin, 'max', `wrong password number ${i}`)).rejects.toThrow('do not match');
    await expect(client.signIn(origin, 'max', PASSWORD)).rejects.toThrow(/Too many failed sign-ins: try again in \d+ minutes?/);
    expect(client.status().state).toBe('signedOut');
    expect(await keychain.get(origin)).toBeNull();
  });

  it('signs in with a name and password: the token in the keychain only, the books the server’s', async () => {
    const asked = await client.core.dispatch('team.signIn', { origin, name: 'pia', password: PASSWORD });
    expect(asked.ok).toBe(true);
    const s = client.status();
    expect(s).toMatchObject({ state: 'live', origin, person: 'pia', role: 'preparer', problem: null });
    expect(s.replicaAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    token = (await keychain.get(origin))!;
    expect(token).toMatch(/^fst_/);
    for (const bytes of everyFile(desktopDir)) {
      expect(bytes.includes(Buffer.from(token))).toBe(false);
      expect(bytes.includes(Buffer.from(PASSWORD))).toBe(false);
    }
    // The server made it for her, labelled with this computer.
    const tokens = runCliSync(['--data-dir', serverDir, 'users', 'tokens', 'pia']);
    expect(tokens.stdout).toContain('desktop on test-laptop');
  });

  it("sends her edit to the server, whose audit trail names her; the desktop's own books are untouched", async () => {
    await client.core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    const audit = await client.core.request('audit.list', {});
    expect(audit.entries.filter((e) => e.entity === 'wallet').map((e) => [e.person, e.via])).toEqual([['pia', 'web']]);
    expect(await local.request('wallets.list', undefined)).toEqual([]);
    // While live, the copy kept is renewed once it is older than its limit (the retry timer asks):
    // the copy the next test opens offline holds her edit.
    const before = client.status().replicaAt!;
    expect(await client.keepCopyFresh(Date.parse(before) + 60_000)).toBe(false);
    expect(client.status().replicaAt).toBe(before);
    expect(await client.keepCopyFresh(Date.parse(before) + REPLICA_MAX_AGE_MS)).toBe(true);
    expect(Date.parse(client.status().replicaAt!)).toBeGreaterThanOrEqual(Date.parse(before));
  });

  it('shows the last copy read-only, with its time, when the server stops, and refuses edits saying why', async () => {
    const madeAt = client.status().replicaAt!;
    await stopServer();
    const wallets = await client.core.request('wallets.list', undefined);
    expect(wallets.map((w) => w.label)).toEqual(['Treasury']);
    expect(client.status()).toMatchObject({ state: 'replica', replicaAt: madeAt, person: 'pia' });
    expect(client.status().problem).toMatch(/could not be reached|stopped answering/);
    const info = await client.core.request('app.info', undefined);
    expect(info.replica).toEqual({ origin, madeAt });
    const edit = await client.core.dispatch('wallets.update', { address: WALLET, label: 'Ops' });
    expect(edit.ok).toBe(false);
    if (!edit.ok) expect(edit.error.message).toContain(`This is a read-only copy of 127.0.0.1:${port} from`);
    // Trying again while the server is down changes nothing: the screens are not told to read again.
    const told: string[] = [];
    const off = client.core.on('data.changed', (c) => told.push(c.scope));
    expect((await client.reconnect()).state).toBe('replica');
    expect((await client.reconnect()).state).toBe('replica');
    off();
    expect(told).toEqual([]);
  });

  it('is live again when the server answers', async () => {
    await startServer();
    expect((await client.reconnect()).state).toBe('live');
    expect((await client.core.request('app.info', undefined)).replica).toBeUndefined();
    await client.core.request('wallets.update', { address: WALLET, label: 'Ops' });
    expect((await client.core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Ops']);
  });

  it('signs out: the token revoked on the server and gone from the keychain, the copy kept, the own books back', async () => {
    const out = await client.signOut();
    expect(out).toMatchObject({ state: 'signedOut', revoked: true, replicaKept: true });
    expect(await keychain.get(origin)).toBeNull();
    const refused = await fetch(`${origin}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    expect(runCliSync(['--data-dir', serverDir, 'users', 'tokens', 'pia']).stdout).not.toContain('desktop on test-laptop');
    expect(await client.core.request('wallets.list', undefined)).toEqual([]);
  });

  it('signs in with a pasted token, and signs out deleting the copy when asked', async () => {
    const made = runCliSync(['--data-dir', serverDir, 'users', 'token', 'lou', '--role', 'viewer']).stdout.trim();
    const s = await client.signInWithToken(origin, made);
    expect(s).toMatchObject({ state: 'live', person: 'lou', role: 'viewer' });
    const refused = await client.core.dispatch('wallets.update', { address: WALLET, label: 'Mine' });
    expect(refused.ok).toBe(false);
    const out = await client.signOut({ deleteReplica: true });
    expect(out.replicaKept).toBe(false);
    expect(readdirSync(join(desktopDir, 'team-replicas'))).toEqual([]);
  });
});

describe('a copy that does not check out', () => {
  let fake: Server;
  let fakeOrigin = '';
  let tamper = false;
  let realBytes = Buffer.alloc(0);
  let realManifest = '';

  beforeAll(async () => {
    // The real server's copy, served by a stand-in that can cut it short.
    const s = await client.signIn(origin, 'pia', PASSWORD);
    expect(s.state).toBe('live');
    const t = (await keychain.get(origin))!;
    const res = await fetch(`${origin}/api/replica`, { headers: { authorization: `Bearer ${t}` } });
    realBytes = Buffer.from(await res.arrayBuffer());
    realManifest = res.headers.get('x-folio-replica-manifest')!;
    await client.signOut({ deleteReplica: true });
    fake = createServer((req, res) => {
      if (req.url === '/api/session')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ person: 'pia', role: 'preparer' }));
      if (req.url === '/api/events') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': connected\n\n');
      if (req.url === '/api/replica') {
        // The manifest names the stand-in (each copy is of the server it came from).
        const m = JSON.parse(Buffer.from(realManifest, 'base64url').toString()) as Record<string, unknown>;
        const header = Buffer.from(JSON.stringify({ ...m, origin: fakeOrigin })).toString('base64url');
        res.writeHead(200, { 'x-folio-replica-manifest': header });
        return void res.end(tamper ? realBytes.subarray(0, realBytes.length - 4096) : realBytes);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    fakeOrigin = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await client.signOut({ deleteReplica: true }).catch(() => undefined);
    fake?.closeAllConnections();
    await new Promise((r) => fake?.close(r));
  });

  it('never replaces the good one: a cut-off download is refused and the kept copy stays', async () => {
    const s = await client.signInWithToken(fakeOrigin, `fst_${'a'.repeat(43)}`);
    expect(s.replicaAt).not.toBeNull();
    const dir = join(desktopDir, 'team-replicas');
    const before = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    tamper = true;
    await expect(client.refreshReplica()).rejects.toThrow(/did not check out.*cut off/);
    expect(readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()).toEqual(before);
    expect(client.status().replicaAt).toBe(s.replicaAt);
  });
});
