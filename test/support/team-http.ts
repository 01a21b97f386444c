/**
 * A team server (src/main/team) in this process over real HTTP, for the attacks of
 * test/security/team-*.test.ts: its own core on a temporary folder, people of every role, the
 * server's clock the test's (`clock.t`), and requests written as an attacker writes them (raw
 * headers, no client that helps).
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/secrets/index.ts';
import { startTeamServer, type TeamServer, type TeamServerOptions } from '../../src/main/team/server.ts';
import { ROLES } from '../../src/shared/roles.ts';
import { KEY, SIM_NOW } from './sim.ts';
import { tempDir } from './store.ts';

export const RENDERER = join(import.meta.dirname, '../../out/renderer');
export const PASSWORD = 'correct horse battery';
export const MIN = 60_000;
const noKeychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}
export interface Browser {
  cookie: string;
  csrf: string;
}

export interface Team {
  core: Core;
  server: TeamServer;
  dataDir: string;
  clock: { t: number };
  origin(): string;
  raw(path: string, o?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Answer>;
  signIn(name: string, password?: string, headers?: Record<string, string>): Promise<Answer>;
  session(name: string, password?: string): Promise<Browser>;
  post(b: Browser, op: string, input: unknown, headers?: Record<string, string>): Promise<Answer>;
  bearer(token: string, op: string, input: unknown): Promise<Answer>;
  close(): Promise<void>;
}

/** A team server with `olive` (owner) and `<role>-1` for every role, all with PASSWORD. */
export async function startTeam(o: {
  /** The reference service's URL (test/support/sim.ts useSimulator), reached with `key`. */
  sim: string;
  key?: string;
  core?: Partial<Parameters<typeof createCore>[0]>;
  server?: Partial<TeamServerOptions>;
  people?: [string, (typeof ROLES)[number]][];
}): Promise<Team> {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  const dataDir = tempDir();
  const clock = { t: SIM_NOW };
  const core = await createCore({
    dataDir,
    shell: 'web',
    baseUrl: o.sim,
    env: { FOLIOSCOPE_ACCESS_KEY: o.key ?? KEY, FOLIOSCOPE_BASE_URL: o.sim },
    keychain: noKeychain,
    cacheKeychain: noKeychain,
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
    team: true,
    ...o.core,
  });
  await core.people.add('olive', 'owner', PASSWORD, clock.t);
  for (const role of ROLES) await core.people.add(`${role}-1`, role, PASSWORD, clock.t);
  for (const [name, role] of o.people ?? []) await core.people.add(name, role, PASSWORD, clock.t);
  const server = await startTeamServer({ core, rendererDir: RENDERER, now: () => clock.t, streamCheckMs: 60_000, ...o.server });

  const origin = () => `http://127.0.0.1:${server.port}`;
  const raw: Team['raw'] = (path, r = {}) =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path, method: r.method ?? 'GET', headers: { Host: `127.0.0.1:${server.port}`, ...r.headers } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      if (r.body !== undefined) req.write(r.body);
      req.end();
    });
  const signIn: Team['signIn'] = (name, password = PASSWORD, headers = {}) =>
    raw('/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin(), ...headers },
      body: new URLSearchParams({ name, password }).toString(),
    });
  const session: Team['session'] = async (name, password = PASSWORD) => {
    const res = await signIn(name, password);
    if (res.status !== 303) throw new Error(`${name} could not sign in: ${res.status} ${res.body.slice(0, 200)}`);
    const cookie = /^([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;
    const s = await raw('/api/session', { headers: { Cookie: cookie } });
    return { cookie, csrf: (JSON.parse(s.body) as { csrf: string }).csrf };
  };
  const post: Team['post'] = (b, op, input, headers = {}) =>
    raw(`/api/${op}`, {
      method: 'POST',
      body: input === undefined ? '' : JSON.stringify(input),
      headers: { 'Content-Type': 'application/json', Origin: origin(), Cookie: b.cookie, 'X-Folio-CSRF': b.csrf, ...headers },
    });
  const bearer: Team['bearer'] = (token, op, input) =>
    raw(`/api/${op}`, {
      method: 'POST',
      body: input === undefined ? '' : JSON.stringify(input),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    });
  return {
    core,
    server,
    dataDir,
    clock,
    origin,
    raw,
    signIn,
    session,
    post,
    bearer,
    close: async () => {
      await server.close();
      await core.close();
    },
  };
}

/** An open `GET api/events` stream: what it has received so far, and a promise of its end. */
export function openEvents(team: Team, headers: Record<string, string>): Promise<{ text(): string; ended: Promise<void>; destroy(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: team.server.port, path: '/api/events', headers: { Host: `127.0.0.1:${team.server.port}`, ...headers } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`api/events answered ${res.statusCode}`));
        let text = '';
        const ended = new Promise<void>((done) => {
          res.on('end', () => done());
          res.on('close', () => done());
        });
        res.on('data', (c) => (text += c));
        resolve({ text: () => text, ended, destroy: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
