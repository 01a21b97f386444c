/**
 * The provider sign-in's commands, as processes: `users add --oidc-subject` (with a password or
 * none), `users link-oidc` / `unlink-oidc` and what they refuse, and `folioscope server
 * --oidc-*` refusing to start with a sentence to act on (an issuer in clear on a network, no
 * secret, a provider it cannot reach), and serving with `--oidc-only` (no password form at all).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from '../support/oidc.ts';
import { tempDir } from '../support/store.ts';

const PASSWORD = 'correct horse battery';
const dir = tempDir();
const at = ['--data-dir', dir];
const ISSUER = 'https://id.team.example';
let provider: TestProvider;
const started: { kill(): void }[] = [];

beforeAll(async () => {
  provider = await startProvider();
  const init = runCliSync([...at, 'server', 'init', '--name', 'olive'], { env: { FOLIOSCOPE_OWNER_PASSWORD: PASSWORD } });
  expect(init.status, init.stderr).toBe(0);
});
afterAll(async () => {
  started.forEach((c) => c.kill());
  await provider?.close();
});

type Listed = { name: string; password: boolean; oidc: { issuer: string; subject: string } | null };
const listed = (): Listed[] => JSON.parse(runCliSync([...at, 'users', 'list', '--json']).stdout) as Listed[];

describe('folioscope users and the provider, as processes', () => {
  it('adds a person linked to the provider with no password (none read from standard input), or with one from the environment', () => {
    const only = runCliSync([...at, 'users', 'add', 'pia', '--role', 'preparer', '--oidc-subject', 'pia-sub', '--oidc-issuer', ISSUER], {
      input: 'a line that is no password\n',
    });
    expect(only.stderr).toBe('');
    expect(only.status).toBe(0);
    expect(only.stdout).toContain(`Added pia (preparer), signing in through ${ISSUER} only (no password).`);
    const both = runCliSync([...at, 'users', 'add', 'abe', '--role', 'approver', '--oidc-subject', 'abe-sub'], {
      env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD, FOLIOSCOPE_OIDC_ISSUER: ISSUER },
    });
    expect(both.status, both.stderr).toBe(0);
    expect(both.stdout).toContain('or with their password');
    expect(listed()).toEqual([
      expect.objectContaining({ name: 'abe', password: true, oidc: { issuer: ISSUER, subject: 'abe-sub' } }),
      expect.objectContaining({ name: 'olive', password: true, oidc: null }),
      expect.objectContaining({ name: 'pia', password: false, oidc: { issuer: ISSUER, subject: 'pia-sub' } }),
    ]);
    const table = runCliSync([...at, 'users', 'list']).stdout;
    expect(table).toMatch(/^name\trole\tstate\tsince\tsign-in$/m);
    expect(table).toMatch(new RegExp(`^pia\\tpreparer\\tactive\\t\\S+\\tprovider \\(pia-sub at ${ISSUER.replace(/\./g, '\\.')}\\)$`, 'm'));
  });

  it('refuses a link without an issuer, with a malformed one, and an account already linked to someone else', () => {
    const noIssuer = runCliSync([...at, 'users', 'add', 'val', '--role', 'viewer', '--oidc-subject', 'val-sub']);
    expect(noIssuer.status).toBe(2);
    expect(noIssuer.stderr).toContain('Which provider? --oidc-issuer URL');
    const bad = runCliSync([...at, 'users', 'link-oidc', 'olive', 'olive-sub', '--oidc-issuer', 'id.team.example']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("The issuer is the provider's issuer URL");
    const taken = runCliSync([...at, 'users', 'link-oidc', 'olive', 'pia-sub', '--oidc-issuer', ISSUER]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('That account is already linked to pia: unlink it there first.');
    expect(listed().find((p) => p.name === 'olive')!.oidc).toBeNull();
  });

  it('links and unlinks, but never unlinks the only way in of a person without a password', () => {
    const linked = runCliSync([...at, 'users', 'link-oidc', 'olive', 'olive-sub', '--oidc-issuer', ISSUER]);
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`olive may sign in through ${ISSUER} as olive-sub.`);
    const unlinked = runCliSync([...at, 'users', 'unlink-oidc', 'olive']);
    expect(unlinked.status, unlinked.stderr).toBe(0);
    expect(unlinked.stdout).toContain('olive no longer signs in through the provider');
    const only = runCliSync([...at, 'users', 'unlink-oidc', 'pia']);
    expect(only.status).toBe(1);
    expect(only.stderr).toContain('pia has no password: the link is their only way in.');
    // With a password given, the link may go.
    expect(runCliSync([...at, 'users', 'reset-password', 'pia'], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(0);
    expect(runCliSync([...at, 'users', 'unlink-oidc', 'pia']).status).toBe(0);
    expect(listed().find((p) => p.name === 'pia')).toMatchObject({ password: true, oidc: null });
    // The trail names each change of a link (never a secret: there is none in it).
    const audit = runCliSync([...at, 'audit', '--json']);
    expect(audit.stdout).toContain('olive-sub at https://id.team.example');
  });
});

describe('folioscope server --oidc-*, as processes', () => {
  it('refuses half a configuration, an issuer in clear beyond this machine, and a missing secret, before opening anything', () => {
    const half = runCliSync([...at, 'server', '--oidc-issuer', provider.issuer]);
    expect(half.status).toBe(2);
    expect(half.stderr).toContain('--oidc-issuer and --oidc-client-id go together');
    const onlyAlone = runCliSync([...at, 'server', '--oidc-only']);
    expect(onlyAlone.status).toBe(2);
    const clear = runCliSync([...at, 'server', '--oidc-issuer', 'http://id.team.example', '--oidc-client-id', CLIENT_ID], {
      env: { FOLIOSCOPE_OIDC_CLIENT_SECRET: CLIENT_SECRET },
    });
    expect(clear.status).toBe(2);
    expect(clear.stderr).toContain('--oidc-issuer must be https:// (plain http only for a provider on this machine)');
    const noSecret = runCliSync([...at, 'server', '--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID]);
    expect(noSecret.status).toBe(1);
    expect(noSecret.stderr).toContain('Set FOLIOSCOPE_OIDC_CLIENT_SECRET to the client');
  });

  it('refuses to start when the provider cannot be reached, saying what to check, and never the secret', async () => {
    // A port that was free a moment ago and is closed now: nothing answers there.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const r = runCliSync([...at, 'server', '--oidc-issuer', `http://127.0.0.1:${port}`, '--oidc-client-id', CLIENT_ID], {
      env: { FOLIOSCOPE_OIDC_CLIENT_SECRET: CLIENT_SECRET },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Could not read the OpenID Connect provider's discovery document at http://127.0.0.1:${port}`);
    expect(r.stderr).toContain('check --oidc-issuer');
    expect(r.stdout + r.stderr).not.toContain(CLIENT_SECRET);
  });

  it('with --oidc-only serves no password form and refuses a password sign-in', async () => {
    const server = startCli([...at, 'server', '--port', '0', '--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-only'], {
      FOLIOSCOPE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    });
    started.push(server.child);
    const origin = await firstLine(server.child, 'server');
    const page = await fetch(`${origin}/sign-in`);
    const body = await page.text();
    expect(body).toContain(`Sign in with ${new URL(provider.issuer).host}</a>`);
    expect(body).not.toContain('<form');
    const post = await fetch(`${origin}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ name: 'olive', password: PASSWORD }).toString(),
    });
    expect(post.status).toBe(403);
    expect(await post.text()).toContain(`This server takes no passwords: sign in with ${new URL(provider.issuer).host}.`);
    expect(post.headers.get('set-cookie')).toBeNull();
    server.child.kill('SIGTERM');
    expect((await server.done).status).toBe(0);
    expect(server.out.stdout + server.out.stderr).not.toContain(CLIENT_SECRET);
  });
});
