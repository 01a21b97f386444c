/**
 * A team server's replica for the desktop (docs/team.md, "The desktop on a team server"), over
 * real HTTP from the real server in this process: every role that may read the books downloads
 * it; the file matches its manifest, opens, holds the books and none of the people's secrets
 * (password hashes, sessions, tokens, sign-in attempts: searched in the bytes) nor the service's
 * key. Then a core opened on that file (CoreOptions.replica) reads, refuses every operation that
 * writes, syncs or would reach the service with the copy's server and time, and leaves the file
 * byte for byte as it was.
 */
import Database from 'better-sqlite3-multiple-ciphers';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { verifyReplica, type ReplicaManifest } from '../../src/main/core/index.ts';
import type { ReplicaReply, ReplicaTask } from '../../src/main/core/replica.ts';
import { REPLICA_MANIFEST_HEADER, startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { CONTRACT } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { ROLES } from '../../src/shared/roles.ts';
import type { Keychain } from '../../src/main/core/secrets/index.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { readCacheIn } from '../support/cli-process.ts';
import { countTurns } from '../support/event-loop.ts';
import { tempDir } from '../support/store.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
const ctx = useSimulator();
const noKeychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
let core: Core;
let server: TeamServer;
const dataDir = tempDir();
const downloads = tempDir();
const tokens: Record<string, string> = {};
let sessionCookie = '';

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  core = await createCore({
    dataDir,
    shell: 'web',
    team: true,
    baseUrl: ctx.sim.url,
    env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: ctx.sim.url },
    keychain: noKeychain,
    cacheKeychain: noKeychain,
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
  });
  for (const role of ROLES) {
    await core.people.add(`${role}-1`, role, PASSWORD, SIM_NOW);
    tokens[role] = core.people.createToken(`${role}-1`, role, `desktop of ${role}`, SIM_NOW).token;
  }
  server = await startTeamServer({ core, rendererDir: RENDERER, now: () => SIM_NOW });
  // A browser session and a failed sign-in: rows the copy must not carry.
  const signIn = (password: string) =>
    fetch(`${server.origin}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin },
      body: new URLSearchParams({ name: 'owner-1', password }).toString(),
    });
  await signIn('wrong password entirely');
  sessionCookie = ((await signIn(PASSWORD)).headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(sessionCookie).toMatch(/=/);
  // Books by a preparer, with their name in the audit trail.
  const edit = await api('preparer', 'wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  expect(edit.ok).toBe(true);
  // What a viewer looked at, kept in the server's file (portfolio/store/answers.ts): not the team's to read.
  expect((await api('viewer', 'portfolio.summary', { date: '2026-10-31', wallet: WALLET })).ok).toBe(true);
  // How an owner reads the books (their own display): theirs, not the team's to read.
  expect((await api('owner', 'settings.display', { theme: 'dark', locale: 'fr-FR' })).ok).toBe(true);
});
afterAll(async () => {
  await server?.close();
  await core?.close();
});

async function api(role: string, op: string, input: unknown): Promise<{ ok: boolean }> {
  const res = await fetch(`${server.origin}/api/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return (await res.json()) as { ok: boolean };
}

async function download(headers: Record<string, string>): Promise<{ status: number; bytes: Buffer; manifest: ReplicaManifest | null }> {
  const res = await fetch(`${server.origin}/api/replica`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const header = res.headers.get(REPLICA_MANIFEST_HEADER);
  return { status: res.status, bytes, manifest: header ? (JSON.parse(Buffer.from(header, 'base64url').toString()) as ReplicaManifest) : null };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('GET api/replica', () => {
  let file = '';
  let manifest: ReplicaManifest;

  it('gives every role that reads the books a copy matching its manifest, and nobody signed out', async () => {
    for (const role of ROLES) {
      const got = await download({ authorization: `Bearer ${tokens[role]}` });
      expect(got.status, role).toBe(200);
      expect(got.manifest, role).not.toBeNull();
      expect(got.manifest!.origin).toBe(server.origin);
      expect(got.manifest!.bytes).toBe(got.bytes.length);
      expect(sha256(got.bytes)).toBe(got.manifest!.sha256);
      file = join(downloads, `${role}.sqlite`);
      writeFileSync(file, got.bytes);
      manifest = verifyReplica(file, got.manifest, server.origin);
      expect(manifest.createdAt).toBe(new Date(SIM_NOW).toISOString());
    }
    // A browser's session too.
    expect((await download({ cookie: sessionCookie })).status).toBe(200);
    expect((await download({})).status).toBe(401);
    expect((await download({ authorization: 'Bearer fst_not-a-token' })).status).toBe(401);
    // Made in the server's data folder, and removed once served.
    expect(readdirSync(join(dataDir, 'replicas'))).toEqual([]);
  });

  it("is made off the server's thread: its event loop turns while the copy is made, which is the copy served", async () => {
    // Turns of this thread's event loop while the core makes a copy: on this thread, the copy, its
    // scrub and its checks would run from the ask to the answer with no turn at all.
    const loop = countTurns();
    const made = await core.replica(server.origin, { role: 'viewer' });
    loop.stop();
    try {
      expect(loop.turns()).toBeGreaterThan(0);
      expect(verifyReplica(made.file, made.manifest, server.origin).counts).toEqual(manifest.counts);
    } finally {
      rmSync(made.file, { force: true });
    }
  });

  it('is made bundled too: out/main/replica.js (electron-vite build) writes a copy that verifies, without the secrets', async () => {
    const bundled = join(import.meta.dirname, '../../out/main/replica.js');
    expect(existsSync(bundled), 'run `npx electron-vite build` first').toBe(true);
    const target = join(tempDir(), 'replica.sqlite');
    const task: ReplicaTask = {
      cacheFile: join(
        dataDir,
        readdirSync(dataDir).find((f) => f.endsWith('.sqlite'))!,
      ),
      key: null,
      target,
      origin: server.origin,
      appVersion: 'bundled',
      now: SIM_NOW,
      role: 'viewer',
    };
    const reply = await new Promise<ReplicaReply>((resolve, reject) => {
      const worker = new Worker(bundled, { workerData: task });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (!reply.ok) throw new Error(reply.message);
    expect(verifyReplica(target, reply.manifest, server.origin).counts).toEqual(manifest.counts);
    expect(readCacheIn(dirname(target), (db) => db.prepare('SELECT count(*) AS n FROM people_sessions').get())).toEqual({ n: 0 });
  });

  it('holds the books and the people by name, and none of their secrets nor the service key', () => {
    const bytes = readFileSync(file);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT address, label FROM wallets').all()).toEqual([{ address: WALLET, label: 'Treasury' }]);
      expect(db.prepare("SELECT count(*) AS n FROM audit_log WHERE person = 'preparer-1'").get()).toEqual({ n: expect.any(Number) });
      expect((db.prepare("SELECT count(*) AS n FROM audit_log WHERE person = 'preparer-1'").get() as { n: number }).n).toBeGreaterThan(0);
      expect(db.prepare('SELECT name, role, password FROM people ORDER BY name').all()).toEqual(
        ROLES.map((r) => `${r}-1`)
          .sort()
          .map((name) => ({ name, role: name.replace(/-1$/, ''), password: '' })),
      );
      for (const t of ['people_sessions', 'people_tokens', 'people_sign_in_attempts', 'people_settings', 'kept_answers'])
        expect((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n, t).toBe(0);
    } finally {
      db.close();
    }
    // Nothing of a secret in any page of the file, free pages included.
    readCacheIn(dataDir, (server) => {
      const secrets = [
        ...(server.prepare('SELECT password FROM people').pluck().all() as string[]),
        ...(server.prepare('SELECT token_hash FROM people_tokens').pluck().all() as string[]),
        ...(server.prepare('SELECT id_hash FROM people_sessions').pluck().all() as string[]),
      ];
      expect(secrets.length).toBeGreaterThan(ROLES.length * 2);
      for (const s of [...secrets, ...Object.values(tokens), KEY]) expect(bytes.includes(Buffer.from(s)), s.slice(0, 12)).toBe(false);
      // The failed sign-in's row is gone too (its address is only in that table).
      expect((server.prepare('SELECT count(*) AS n FROM people_sign_in_attempts WHERE ok = 0').get() as { n: number }).n).toBeGreaterThan(0);
      // The viewer's ask is kept in the server's file, and its request (what they looked at) in no page of the copy.
      const requests = server.prepare('SELECT request FROM kept_answers').pluck().all() as string[];
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) expect(bytes.includes(Buffer.from(r)), r).toBe(false);
    });
  });

  it('refuses a copy whose bytes were changed or cut off', () => {
    const bad = join(tempDir(), 'bad.sqlite');
    const bytes = readFileSync(file);
    writeFileSync(bad, bytes.subarray(0, bytes.length - 1024));
    expect(() => verifyReplica(bad, manifest)).toThrow(/cut off/);
    const flipped = Buffer.from(bytes);
    const at = flipped.length - 100;
    flipped.writeUInt8(flipped.readUInt8(at) ^ 0xff, at);
    writeFileSync(bad, flipped);
    expect(() => verifyReplica(bad, manifest)).toThrow(/SHA-256/);
    expect(() => verifyReplica(file, manifest, 'https://elsewhere.example.org')).toThrow(/not of https:\/\/elsewhere/);
  });

  describe('a core over the replica', () => {
    let replica: Core;
    let before = '';
    const desktop = tempDir();
    beforeAll(async () => {
      mkdirSync(desktop, { recursive: true });
      before = sha256(readFileSync(file));
      replica = await createCore({
        dataDir: desktop,
        shell: 'web',
        scheduleEveryMs: 0,
        keychain: noKeychain,
        cacheKeychain: noKeychain,
        replica: { file, origin: manifest.origin, madeAt: manifest.createdAt },
      });
    });
    afterAll(async () => {
      await replica?.close();
    });

    it('reads the books and says it is a replica', async () => {
      const info = await replica.request('app.info', undefined);
      expect(info.replica).toEqual({ origin: manifest.origin, madeAt: manifest.createdAt });
      expect(info.cacheReadOnly).toBe(true);
      expect((await replica.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
      expect((await replica.request('audit.list', {})).entries.some((e) => e.person === 'preparer-1')).toBe(true);
    });

    it('refuses every operation that writes, syncs or would reach the service, with the server and the time', async () => {
      const refused: string[] = [];
      for (const op of OPERATION_NAMES) {
        const res = await replica.dispatch(op, {});
        if (!res.ok && res.error.said?.code === 'team.replicaReadOnly') {
          refused.push(op);
          expect(res.error.message).toContain(`read-only copy of 127.0.0.1:${server.port} from ${manifest.createdAt.slice(0, 10)}`);
        } else expect(CONTRACT[op].writes, op).toBe(false);
      }
      for (const op of OPERATION_NAMES) if (CONTRACT[op].writes) expect(refused, op).toContain(op);
      for (const op of ['sync.all', 'sync.positions', 'sync.transactions', 'service.check', 'key.set', 'app.connect']) expect(refused).toContain(op);
      // A read that would fetch from the service: the client there is none of says so.
      const logs = await replica.dispatch('logs.get', { chain: 'eth', txnHash: `0x${'ab'.repeat(32)}`, refresh: true });
      expect(logs.ok).toBe(false);
    });

    it('leaves the file as it was downloaded', async () => {
      await replica.close();
      expect(sha256(readFileSync(file))).toBe(before);
      expect(readdirSync(join(file, '..')).filter((n) => n.includes('-journal') || n.endsWith('-wal'))).toEqual([]);
    });
  });
});

describe('the replica of an encrypted server', () => {
  it('is a plain file the desktop can open without the server’s key, its people still scrubbed', async () => {
    const dir = tempDir();
    const keys = new Map<string, string>();
    const cacheKeychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
    const encrypted = await createCore({
      dataDir: dir,
      shell: 'web',
      baseUrl: ctx.sim.url,
      env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: ctx.sim.url },
      keychain: noKeychain,
      cacheKeychain,
      scheduleEveryMs: 0,
      now: () => SIM_NOW,
    });
    try {
      await encrypted.people.add('olive', 'owner', PASSWORD, SIM_NOW);
      await encrypted.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Vault' });
      expect((await encrypted.request('cache.encrypt', {})).on).toBe(true);
      const { file, manifest } = await encrypted.replica('https://books.example.org');
      try {
        expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
        expect(verifyReplica(file, manifest, 'https://books.example.org').sha256).toBe(manifest.sha256);
        const db = new Database(file, { readonly: true });
        try {
          expect(db.prepare('SELECT label FROM wallets').pluck().all()).toEqual(['Vault']);
          expect(db.prepare('SELECT password FROM people').pluck().all()).toEqual(['']);
        } finally {
          db.close();
        }
      } finally {
        rmSync(file, { force: true });
      }
    } finally {
      await encrypted.close();
    }
  });
});
