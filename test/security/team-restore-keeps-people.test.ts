/**
 * A restore brings back the books, not the people (people.ts `peopleKeeper`, session.ts
 * `CacheKeeper`). The people live in the cache file, so before this a backup made last week and
 * restored today brought back whoever could sign in last week: a person disabled since, a token
 * revoked since, a password changed since, while the people added since (and every live session)
 * were gone. Here an owner restores a backup over HTTP, as on a team server, after the people
 * changed; who may sign in is as it was before the restore, the books as the backup held them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { PASSWORD, startTeam, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  team = await startTeam({ sim: ctx.sim.url, people: [['mallory', 'preparer']] });
});
afterAll(async () => {
  await team?.close();
});

const ok = (answer: { status: number; body: string }) => {
  expect(answer.status, answer.body).toBe(200);
  const envelope = JSON.parse(answer.body) as { ok: boolean; result?: unknown; error?: { message: string } };
  expect(envelope.ok, envelope.error?.message).toBe(true);
  return envelope.result;
};

describe('restoring a backup on a team server', () => {
  it('keeps who may sign in as it is now (disabled, revoked, added, signed in), and brings back only the books', async () => {
    const { core, clock } = team;
    const olive = await team.session('olive');
    // The books and the people at the time of the backup: one wallet; mallory a preparer with a token.
    ok(await team.post(olive, 'wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' }));
    const mallorysToken = core.people.createToken('mallory', 'preparer', 'laptop', clock.t);
    ok(await team.bearer(mallorysToken.token, 'wallets.list', undefined));
    // A person's own display at the time: dark, in German.
    const viewer = await team.session('viewer-1');
    ok(await team.post(viewer, 'settings.display', { theme: 'dark', locale: 'de-DE' }));
    const backup = ok(await team.post(olive, 'backups.create', {})) as { name: string };

    // Since then: mallory disabled and her token revoked, a new person, a new password, another wallet.
    core.people.revokeToken('mallory', mallorysToken.id, clock.t);
    core.people.disable('mallory', clock.t);
    await core.people.add('newt', 'viewer', PASSWORD, clock.t);
    ok(await team.post(viewer, 'settings.display', { theme: 'light', locale: null }));
    await core.people.resetPassword('viewer-1', 'a new long passphrase', clock.t);
    const newtsSession = await team.session('newt');
    ok(await team.post(newtsSession, 'settings.display', { timeZone: 'local' }));
    ok(await team.post(olive, 'wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Cold' }));

    const restored = ok(await team.post(olive, 'backups.restore', { name: backup.name })) as { restored: { name: string } };
    expect(restored.restored.name).toBe(backup.name);

    // The books are the backup's: the wallet added after it is gone.
    const wallets = ok(await team.post(olive, 'wallets.list', undefined)) as Array<{ address: string }>;
    expect(wallets.map((w) => w.address)).toEqual([WALLET]);
    // The people are today's: mallory stays disabled and her token revoked …
    expect(core.people.list().find((p) => p.name === 'mallory')?.disabled).toBe(true);
    expect((await team.signIn('mallory')).status).not.toBe(303);
    expect((await team.bearer(mallorysToken.token, 'wallets.list', undefined)).status).toBe(401);
    expect(core.people.tokens('mallory')).toEqual([]);
    // … the person added since may sign in and her session still holds; the old password no longer works.
    ok(await team.post(newtsSession, 'wallets.list', undefined));
    expect((await team.signIn('newt')).status).toBe(303);
    expect((await team.signIn('viewer-1')).status).not.toBe(303);
    expect((await team.signIn('viewer-1', 'a new long passphrase')).status).toBe(303);
    // Each person's display is today's, with them: the viewer's light theme and no format of her
    // own (not the backup's dark German), and the display of the person added since.
    const shownTo = async (who: string, password = PASSWORD) =>
      (ok(await team.post(await team.session(who, password), 'settings.get', undefined)) as { personal: unknown }).personal;
    expect(await shownTo('viewer-1', 'a new long passphrase')).toMatchObject({ theme: 'light', locale: null, timeZone: null });
    expect(ok(await team.post(newtsSession, 'settings.get', undefined))).toMatchObject({ timeZone: 'local', personal: { timeZone: 'local' } });
  }, 120_000);
});

describe('connecting another service on a team server’s data folder', () => {
  it('keeps the people: the other service’s cache file does not change who may sign in', async () => {
    const { core, clock } = team;
    const before = core.people.list().map((p) => [p.name, p.role, p.disabled]);
    const olive = await team.session('olive');
    ok(await team.post(olive, 'settings.display', { theme: 'dark' }));
    // Run on the server's machine (an operator's CLI; a signed-in person may not: team.serviceOnServer):
    // the same reference service by another name is another cache file.
    const other = ctx.sim.url.replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(ctx.sim.url);
    await core.request('app.connect', { baseUrl: other });
    expect((await core.request('app.info', {})).baseUrl).toBe(other);
    expect(core.people.list().map((p) => [p.name, p.role, p.disabled])).toEqual(before);
    ok(await team.post(olive, 'wallets.list', undefined));
    // Her display came with her: the other cache has the people's tables as they were.
    expect(ok(await team.post(olive, 'settings.get', undefined))).toMatchObject({ theme: 'dark', personal: { theme: 'dark' } });
    await core.people.add('dora', 'viewer', PASSWORD, clock.t);
    await core.request('app.connect', { baseUrl: ctx.sim.url });
    expect(core.people.list().map((p) => p.name)).toContain('dora');
    ok(await team.post(olive, 'wallets.list', undefined));
    expect((await team.signIn('dora')).status).toBe(303);
  }, 120_000);
});
