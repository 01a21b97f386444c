/**
 * Each person's display on a team server (docs/team.md, "Each person's display"): a viewer picks
 * their own theme, format and zone over HTTP, which the books' settings (an owner's) do not
 * overwrite and nobody else sees; a PDF the viewer exports is in their format; a bad choice is
 * refused whole; without a person the operation says where the settings are.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/shared/contract.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { useSimulator } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { startTeam, type Browser, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  team = await startTeam({ sim: ctx.sim.url });
});
afterAll(async () => {
  await team?.close();
});

async function ask<T>(
  who: Browser,
  op: string,
  input: unknown = {},
): Promise<{ status: number; ok: boolean; result: T; error?: { kind: string; message: string; said?: { code: string } } }> {
  const res = await team.post(who, op, input);
  return { status: res.status, ...(JSON.parse(res.body) as { ok: boolean; result: T }) };
}

describe("each person's display on a team server", () => {
  it('is the person’s own, over the books’ settings, and never anyone else’s', async () => {
    const viewer = await team.session('viewer-1');
    const preparer = await team.session('preparer-1');
    const owner = await team.session('olive');

    const before = await ask<Settings>(viewer, 'settings.get');
    expect(before.result).toMatchObject({ theme: 'system', locale: null, timeZone: 'utc' });
    expect(before.result.personal).toEqual({ theme: null, locale: null, timeZone: null, books: { theme: 'system', locale: null, timeZone: 'utc' } });

    // The books' settings stay an owner's; the viewer's own display is theirs to choose.
    expect((await ask(viewer, 'settings.update', { theme: 'dark' })).status).toBe(403);
    const mine = await ask<Settings>(viewer, 'settings.display', { theme: 'dark', locale: 'de-DE', timeZone: 'local' });
    expect(mine.ok).toBe(true);
    expect(mine.result).toMatchObject({ theme: 'dark', locale: 'de-DE', timeZone: 'local' });
    expect(mine.result.personal).toMatchObject({ theme: 'dark', locale: 'de-DE', timeZone: 'local' });

    // Nobody else reads through the viewer's choice.
    expect((await ask<Settings>(preparer, 'settings.get')).result).toMatchObject({ theme: 'system', locale: null, timeZone: 'utc' });

    // An owner changes the books' format: the viewer keeps their own, the preparer follows the books.
    const version = (await ask<Settings>(owner, 'settings.get')).result.version;
    expect((await ask(owner, 'settings.update', { locale: 'fr-FR', theme: 'light', expectedVersion: version })).ok).toBe(true);
    expect((await ask<Settings>(viewer, 'settings.get')).result).toMatchObject({ theme: 'dark', locale: 'de-DE' });
    expect((await ask<Settings>(preparer, 'settings.get')).result).toMatchObject({ theme: 'light', locale: 'fr-FR' });
    // The owner's own display is theirs too: their choice does not become the books'.
    expect((await ask<Settings>(owner, 'settings.display', { theme: 'dark' })).result).toMatchObject({
      theme: 'dark',
      personal: { books: { theme: 'light' } },
    });
    expect((await ask<Settings>(preparer, 'settings.get')).result.theme).toBe('light');

    // A format this system does not know is refused whole: the theme sent with it is not kept either.
    const bad = await ask(viewer, 'settings.display', { theme: 'light', locale: 'not a locale!' });
    expect(bad.ok).toBe(false);
    expect(bad.error?.kind).toBe('validation');
    expect((await ask<Settings>(viewer, 'settings.get')).result).toMatchObject({ theme: 'dark', locale: 'de-DE' });
    // A member the display does not have (the chains are the books') is refused as well.
    expect((await ask(viewer, 'settings.display', { chains: ['eth'] })).ok).toBe(false);
    expect((await ask<Settings>(viewer, 'settings.get')).result.chains).toEqual((await ask<Settings>(owner, 'settings.get')).result.chains);

    // null follows the books' again.
    expect((await ask<Settings>(viewer, 'settings.display', { timeZone: null })).result).toMatchObject({ timeZone: 'utc', personal: { timeZone: null } });

    // Not the books: the audit trail records the owner's change, and nothing of anyone's display.
    const trail = JSON.stringify((await ask(owner, 'audit.list', {})).result);
    expect(trail).toContain('fr-FR');
    expect(trail).not.toContain('de-DE');
  });

  it('writes a PDF the person exports in their own format', async () => {
    const owner = await team.session('olive');
    const viewer = await team.session('viewer-1');
    const wallet = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
    await ask(owner, 'wallets.add', { address: wallet, chains: ['eth'] });
    await ask(viewer, 'settings.display', { locale: 'de-DE' });
    const finished = async (who: Browser, id: string): Promise<JobInfo> => {
      let job: JobInfo | undefined;
      await expect
        .poll(
          async () => {
            job = (await ask<JobInfo[]>(who, 'sync.jobs')).result.find((j) => j.id === id);
            return job?.state;
          },
          { timeout: 60_000 },
        )
        .toBe('done');
      return job!;
    };
    await finished(owner, (await ask<JobInfo>(owner, 'sync.positions', { wallet, date: '2026-10-31' })).result.id);
    const pdfOf = async (who: Browser): Promise<string> => {
      const started = await ask<JobInfo>(who, 'export.start', { format: 'pdf', date: '2026-10-31' });
      expect(started.ok, JSON.stringify(started.error)).toBe(true);
      const job = await finished(who, started.result.id);
      const path = join(tempDir(), 'report.pdf');
      const bytes = await new Promise<Buffer>((resolve, reject) => {
        const req = request(`${team.origin()}/api/download/${job.output!.downloadId}`, { headers: { Cookie: who.cookie } }, (res) => {
          expect(res.statusCode).toBe(200);
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve(Buffer.concat(parts)));
        });
        req.on('error', reject);
        req.end();
      });
      writeFileSync(path, bytes);
      return execFileSync('pdftotext', [path, '-']).toString().replace(/\s+/g, ' ');
    };
    expect(await pdfOf(viewer)).toContain('Portfoliobericht');
    // The owner (books' format fr-FR since the test above, English words) is not written in the viewer's.
    expect(await pdfOf(owner)).not.toContain('Portfoliobericht');
  });

  it('is refused without a person, saying where the settings are, and changes nothing', async () => {
    const before = await team.core.request('settings.get', {});
    const res = await team.core.dispatch('settings.display', { theme: 'dark' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error.said?.code).toBe('settings.displayNeedsPerson');
    expect(await team.core.request('settings.get', {})).toEqual(before);
  });
});
