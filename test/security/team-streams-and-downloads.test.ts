/**
 * Attacks on what the team server hands out beside the operations' answers: the event stream
 * (`GET api/events`) kept open by a credential that has since been taken away, and the one-shot
 * downloads of exports (`GET api/download/<id>`), whose ids every reader sees in the jobs' events.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_CREDENTIAL, MAX_STREAMS_PER_PERSON } from '../../src/main/team/server.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { useSimulator } from '../support/sim.ts';
import { MIN, openEvents, startTeam, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  // Streams are checked every 50 ms here, so a stream that should end does so while the test waits for it.
  team = await startTeam({
    sim: ctx.sim.url,
    server: { streamCheckMs: 50 },
    people: [
      ['tok', 'preparer'],
      ['tess', 'viewer'],
      ['sol', 'viewer'],
    ],
  });
});
afterAll(async () => {
  await team?.close();
});

describe('team event streams end with the credential that opened them', () => {
  it('a bearer token’s stream ends when the token is revoked', async () => {
    const { token, id } = team.core.people.createToken('tok', 'viewer', 'stream', team.clock.t);
    const stream = await openEvents(team, { Authorization: `Bearer ${token}` });
    expect(team.core.people.revokeToken('tok', id)).toBe(true);
    await stream.ended;
    expect(stream.text()).toContain(': connected');
  });

  it('a bearer token’s stream ends when its owner is disabled', async () => {
    const { token } = team.core.people.createToken('tess', 'viewer', 'stream', team.clock.t);
    const stream = await openEvents(team, { Authorization: `Bearer ${token}` });
    team.core.people.disable('tess', team.clock.t);
    await stream.ended;
  });

  it('a session’s stream ends when the session passes its idle limit on the server’s clock (a stream is no activity)', async () => {
    const b = await team.session('viewer-1');
    const stream = await openEvents(team, { Cookie: b.cookie });
    team.clock.t += 31 * MIN;
    await stream.ended;
    expect((await team.raw('/api/session', { headers: { Cookie: b.cookie } })).status).toBe(401);
  });

  it('a session’s stream ends on sign-out everywhere from another session, and on disabling', async () => {
    const a = await team.session('sol');
    const b = await team.session('sol');
    const stream = await openEvents(team, { Cookie: a.cookie });
    expect((await team.post(b, 'sign-out-everywhere', undefined)).status).toBe(200);
    await stream.ended;
    const c = await team.session('sol');
    const again = await openEvents(team, { Cookie: c.cookie });
    team.core.people.disable('sol', team.clock.t);
    await again.ended;
  });
});

describe('team event streams are bounded per credential', () => {
  it('a person opening streams without end keeps only the newest: the oldest are ended', async () => {
    const { token } = team.core.people.createToken('viewer-1', 'viewer', 'streams', team.clock.t);
    const before = team.server.eventStreams();
    const first = await openEvents(team, { Authorization: `Bearer ${token}` });
    const rest = [];
    for (let i = 0; i < MAX_STREAMS_PER_CREDENTIAL; i++) rest.push(await openEvents(team, { Authorization: `Bearer ${token}` }));
    await first.ended;
    expect(team.server.eventStreams() - before).toBe(MAX_STREAMS_PER_CREDENTIAL);
    // Another person's streams are not theirs to end.
    const b = await team.session('auditor-1');
    const theirs = await openEvents(team, { Cookie: b.cookie });
    expect(team.server.eventStreams() - before).toBe(MAX_STREAMS_PER_CREDENTIAL + 1);
    for (const s of [...rest, theirs]) s.destroy();
  });

  it('and per person: more tokens of one person buy no more streams than MAX_STREAMS_PER_PERSON', async () => {
    const tokens = [1, 2, 3].map((i) => team.core.people.createToken('approver-1', 'approver', `streams ${i}`, team.clock.t).token);
    // The streams the tests before ended are gone on the server's side too (their close is an event).
    await expect.poll(() => team.server.eventStreams()).toBe(0);
    const before = team.server.eventStreams();
    const open = [];
    // 3 tokens × 16 streams each: 48 asked, 32 kept (the oldest ended, whichever token opened them).
    for (const token of tokens) for (let i = 0; i < MAX_STREAMS_PER_CREDENTIAL; i++) open.push(await openEvents(team, { Authorization: `Bearer ${token}` }));
    await Promise.all(open.slice(0, open.length - MAX_STREAMS_PER_PERSON).map((s) => s.ended));
    expect(team.server.eventStreams() - before).toBe(MAX_STREAMS_PER_PERSON);
    for (const s of open) s.destroy();
  });
});

describe('team downloads are the exporter’s own', () => {
  it('another person cannot take an export (its id is in every reader’s events and jobs), and its owner still can', async () => {
    const owner = await team.session('preparer-1');
    const other = await team.session('viewer-1');
    const started = await team.post(owner, 'userData.export', undefined);
    expect(started.status).toBe(200);
    const job = (JSON.parse(started.body) as { result: JobInfo }).result;
    // What any reader learns: the jobs, with the finished export's download id.
    let id: string | null = null;
    for (let i = 0; i < 200 && !id; i++) {
      const jobs = (JSON.parse((await team.post(other, 'sync.jobs', undefined)).body) as { result: JobInfo[] }).result;
      id = jobs.find((j) => j.id === job.id && j.state === 'done')?.output?.downloadId ?? null;
    }
    expect(id).toBeTruthy();
    const stolen = await team.raw(`/api/download/${id}`, { headers: { Cookie: other.cookie } });
    expect(stolen.status).toBe(404);
    // Nor a token of someone else, nor a stranger.
    const { token } = team.core.people.createToken('approver-1', 'viewer', 'x', team.clock.t);
    expect((await team.raw(`/api/download/${id}`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);
    expect((await team.raw(`/api/download/${id}`)).status).toBe(401);
    const mine = await team.raw(`/api/download/${id}`, { headers: { Cookie: owner.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers['content-disposition']).toMatch(/^attachment;/);
    // Served once.
    expect((await team.raw(`/api/download/${id}`, { headers: { Cookie: owner.cookie } })).status).toBe(404);
  });

  it('a guessed or traversing id is nothing', async () => {
    const b = await team.session('owner-1');
    for (const id of ['1', 'job-1', '..%2F..%2Fcache.db', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'x'.repeat(5000)])
      expect((await team.raw(`/api/download/${id}`, { headers: { Cookie: b.cookie } })).status).toBe(404);
  });

  it('exports nobody takes do not pile up on the server: the oldest beyond the bound go, and all of them when it stops', async () => {
    const other = await startTeam({ sim: ctx.sim.url, server: { maxPendingDownloads: 3 } });
    const dir = join(other.dataDir, 'downloads');
    const files = () => (existsSync(dir) ? readdirSync(dir) : []);
    try {
      const b = await other.session('viewer-1');
      // A reader may export as often as they like, and never download.
      for (let i = 0; i < 6; i++) {
        const job = (JSON.parse((await other.post(b, 'userData.export', undefined)).body) as { result: JobInfo }).result;
        while (
          !(JSON.parse((await other.post(b, 'sync.jobs', undefined)).body) as { result: JobInfo[] }).result.some((j) => j.id === job.id && j.state === 'done')
        );
      }
      expect(files()).toHaveLength(3);
    } finally {
      await other.close();
    }
    expect(files()).toEqual([]);
  });
});
