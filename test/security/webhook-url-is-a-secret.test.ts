import Database from 'better-sqlite3-multiple-ciphers';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { ROLES, type Role } from '../../src/shared/roles.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { cacheOf, tempDir } from '../support/store.ts';

/**
 * A webhook URL is a secret (a Slack incoming webhook posts to the channel for whoever holds it):
 * on a team server only who may set it (an owner) sees it whole. Everyone else's settings, every
 * audit entry and export (an owner's too: the trail keeps where it goes, never the whole), and the
 * replica of a person who may not see it hold its origin only — an entry written before the trail
 * kept it so included. Each figure read as the person reads it (the core's dispatch with their
 * role, the replica file opened as SQLite).
 */
const SECRET = 'T0A1B2C3D/B0E1F2G3H/q7Zx9Lm2Vn4Kp8Rt6Wy1Uo3S';
const URL_WHOLE = `https://hooks.slack.com/services/${SECRET}`;
const SHOWN = 'https://hooks.slack.com/…';
let team: Core;
const as = (role: Role) => ({ actor: { person: `${role}@team`, role } });

beforeAll(async () => {
  team = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter(), scheduleEveryMs: 0, team: true });
  // Set on the server, as its owner sets it (an owner through the web may too).
  const set = await team.dispatch('settings.update', { alertWebhookUrl: `https://hooks.slack.com/services/OLD/${SECRET}` }, as('owner'));
  expect(set).toMatchObject({ ok: true, result: { alertWebhookUrl: `https://hooks.slack.com/services/OLD/${SECRET}` } });
  // A change to another URL on the same host is an edit of its own, though both read the same shown.
  expect(await team.dispatch('settings.update', { alertWebhookUrl: URL_WHOLE }, as('owner'))).toMatchObject({ ok: true });
});
afterAll(() => team.close());

describe('a webhook URL on a team server', () => {
  it('is whole to an owner only; every other role reads where it goes', async () => {
    for (const role of ROLES) {
      const res = await team.dispatch('settings.get', undefined, as(role));
      expect(res, role).toMatchObject({ ok: true, result: { alertWebhookUrl: role === 'owner' ? URL_WHOLE : SHOWN } });
    }
    // The server's own machine (no person) is its owner.
    expect(await team.dispatch('settings.get', undefined)).toMatchObject({ ok: true, result: { alertWebhookUrl: URL_WHOLE } });
  });

  it('is in no audit entry whole, an entry written before this was kept included', async () => {
    // An entry as an earlier version wrote it: the URL whole in before and after.
    const db = await cacheOf(team);
    db.prepare(
      `INSERT INTO audit_log (at, entity, item, action, before, after, origin) VALUES ('2026-01-01T00:00:00.000Z', 'setting', 'alertWebhookUrl', 'update', ?, ?, 'settings.update')`,
    ).run(JSON.stringify({ alertWebhookUrl: null }), JSON.stringify({ alertWebhookUrl: URL_WHOLE }));
    for (const role of ROLES) {
      const res = await team.dispatch('audit.list', { entity: 'setting', key: 'alertWebhookUrl' }, as(role));
      if (!res.ok) continue; // a role that may not read the trail learns nothing of it
      const { entries } = res.result as { entries: Array<{ before: unknown; after: unknown }> };
      expect(entries.length, role).toBe(3);
      expect(JSON.stringify(entries), role).not.toContain(SECRET);
      expect(entries.map((e) => e.after)).toContainEqual({ alertWebhookUrl: SHOWN });
    }
    // Written now, the trail itself never held it.
    const rows = db.prepare(`SELECT before, after FROM audit_log WHERE entity = 'setting' AND origin = 'settings.update' ORDER BY id`).all() as Array<{
      before: string;
      after: string;
    }>;
    expect(rows.slice(0, 2).map((r) => r.after)).toEqual([JSON.stringify({ alertWebhookUrl: SHOWN }), JSON.stringify({ alertWebhookUrl: SHOWN })]);
  });

  it("is in no replica of someone who may not see it, not even in the file's pages, and the copy's schema is the server's", async () => {
    const schema = (d: Database.Database) => d.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`).all();
    const server = schema(await cacheOf(team));
    for (const role of ['viewer', 'owner'] as const) {
      const { file } = await team.replica('https://books.example.org', { role });
      try {
        const copy = new Database(file, { readonly: true });
        try {
          const setting = copy.prepare(`SELECT value FROM settings WHERE key = 'alertWebhookUrl'`).get() as { value: string };
          const trail = JSON.stringify(copy.prepare(`SELECT before, after FROM audit_log`).all());
          if (role === 'viewer') {
            expect(JSON.parse(setting.value)).toBe(SHOWN);
            expect(trail).not.toContain(SECRET);
          } else expect(JSON.parse(setting.value)).toBe(URL_WHOLE);
          expect(schema(copy)).toEqual(server);
        } finally {
          copy.close();
        }
        // Nowhere in the file, a freed page included (the copy is VACUUMed after the scrub).
        const bytes = readFileSync(file);
        if (role === 'viewer') expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
      } finally {
        rmSync(file, { force: true });
      }
    }
  });

  it('is quoted by no notice when the value kept no longer validates, to any role', async () => {
    const db = await cacheOf(team);
    const kept = db.prepare(`SELECT value FROM settings WHERE key = 'alertWebhookUrl'`).pluck().get() as string;
    // A value an older version (or a hand) kept that this one refuses: its notice is read by every role.
    db.prepare(`UPDATE settings SET value = ? WHERE key = 'alertWebhookUrl'`).run(JSON.stringify(`ftp://hooks.slack.com/services/${SECRET}`));
    try {
      for (const role of ROLES)
        for (const op of ['settings.get', 'settings.update'] as const) {
          const res = await team.dispatch(op, op === 'settings.get' ? undefined : { theme: 'light' }, as(role));
          if (!res.ok) continue;
          const notices = (res.result as { notices?: string[] }).notices ?? [];
          expect(notices.join(' '), `${op} as ${role}`).toMatch(/alertWebhookUrl setting is not valid here/);
          // Not even the start of it (a notice quoted the first 40 characters).
          expect(JSON.stringify(res.result), `${op} as ${role}`).not.toContain(SECRET.slice(0, 6));
        }
    } finally {
      db.prepare(`UPDATE settings SET value = ? WHERE key = 'alertWebhookUrl'`).run(kept);
    }
  });
});
