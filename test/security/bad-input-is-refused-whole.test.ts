import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCore } from '../../src/main/core/app.ts';
import { CONTRACT, LIMITS } from '../../src/shared/contract.ts';
import { WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: settings.update accepted 100,000 chains (stored, then read and looped over on
 * every settings read). Every list and text of every operation now has a maximum; an input
 * past one is refused whole, naming the field and the limit, and changes nothing. Also: a
 * label, tag or group name with a lone surrogate was accepted and stored as U+FFFD; and a
 * watched non-EVM address holding "../" made an export's file name a path out of the
 * downloads folder.
 */

/** Every list and text in a schema without a maximum, by path ("settings.update.chains"). */
function unbounded(schema: z.ZodType, path: string, out: string[] = []): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: { check: string } } }> };
  const hasMax = () => (def.checks ?? []).some((c) => c._zod.def.check === 'max_length' || c._zod.def.check === 'length_equals');
  switch (def.type) {
    case 'string':
      if (!hasMax()) out.push(`${path} (text)`);
      break;
    case 'array':
      if (!hasMax()) out.push(`${path} (list)`);
      unbounded(def['element'] as z.ZodType, `${path}[]`, out);
      break;
    case 'object':
      for (const [k, v] of Object.entries(def['shape'] as Record<string, z.ZodType>)) unbounded(v, `${path}.${k}`, out);
      if (def['catchall'] && (def['catchall'] as z.ZodType)._zod.def.type !== 'never') out.push(`${path}.* (open object)`);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      unbounded(def['innerType'] as z.ZodType, path, out);
      break;
    case 'pipe':
      unbounded(def['in'] as z.ZodType, path, out);
      break;
    case 'union':
      for (const o of def['options'] as z.ZodType[]) unbounded(o, path, out);
      break;
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
    case 'never':
      break;
    default:
      // A kind of schema this walk does not know: it must learn it before the contract uses it.
      out.push(`${path} (unchecked ${def.type})`);
  }
  return out;
}

describe('every list and text the contract takes has a maximum', () => {
  it('walks every operation input', () => {
    const missing = Object.entries(CONTRACT).flatMap(([op, { input }]) => unbounded(input as z.ZodType, op));
    expect(missing).toEqual([]);
  });

  it('the walk itself finds an unbounded list, text or open object', () => {
    const careless = z.strictObject({ a: z.array(z.string().max(5)), b: z.string().regex(/^x{1,3}$/), c: z.object({}).catchall(z.number()) }).optional();
    expect(unbounded(careless, 'op')).toEqual(['op.a (list)', 'op.b (text)', 'op.c.* (open object)']);
  });
});

describe('an input past a limit is refused whole and changes nothing', () => {
  it('settings, wallets, groups and the timeline', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      const before = await core.call('settings.get', undefined);
      const many = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
      expect(await core.dispatch('settings.update', { chains: many })).toMatchObject({
        ok: false,
        error: { kind: 'validation', field: 'chains', message: `chains: at most ${LIMITS.chains} chains` },
      });
      expect(await core.dispatch('settings.update', { chains: many.slice(0, LIMITS.chains + 1), theme: 'dark' })).toMatchObject({ ok: false });
      expect(await core.call('settings.get', undefined)).toEqual(before);
      // At the limit is fine.
      expect(await core.dispatch('settings.update', { chains: many.slice(0, LIMITS.chains) })).toMatchObject({ ok: true });
      // A row an older version stored past the limit is ignored with a notice, as any invalid setting is.
      (await cacheOf(core)).prepare("UPDATE settings SET value = ? WHERE key = 'chains'").run(JSON.stringify(many));
      const read = await core.call('settings.get', undefined);
      expect(read.chains).toEqual(before.chains);
      expect(read.notices?.join(' ')).toMatch(/chains setting .* was ignored/);
      await core.call('settings.update', { chains: before.chains });

      expect(await core.dispatch('wallets.add', { address: WALLET, chains: many.slice(0, LIMITS.chains + 1) })).toMatchObject({
        ok: false,
        error: { field: 'chains' },
      });
      const tags = Array.from({ length: LIMITS.tags + 1 }, (_, i) => `t${i}`);
      expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], tags })).toMatchObject({ ok: false, error: { field: 'tags' } });
      expect(await core.call('wallets.list', undefined)).toEqual([]);
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });

      const wallets = Array.from({ length: LIMITS.groupWallets + 1 }, () => WALLET);
      expect(await core.dispatch('groups.save', { name: 'Big', wallets })).toMatchObject({ ok: false, error: { field: 'wallets' } });
      expect(await core.dispatch('groups.save', { name: 'x'.repeat(LIMITS.groupName + 1), wallets: [WALLET] })).toMatchObject({
        ok: false,
        error: { field: 'name', message: `name: group name is too long (at most ${LIMITS.groupName} characters)` },
      });
      expect(await core.call('groups.list', undefined)).toEqual([]);

      const values = Array.from({ length: LIMITS.filterValues + 1 }, (_, i) => `v${i}`);
      for (const filter of ['tokens', 'protocols', 'actionTypes'])
        expect(await core.dispatch('timeline.page', { [filter]: values }), filter).toMatchObject({ ok: false, error: { field: filter } });
      expect(await core.dispatch('timeline.page', { search: '0x' + 'a'.repeat(1_000_000) })).toMatchObject({ ok: false, error: { field: 'search' } });
    } finally {
      await core.close();
    }
  });

  it('numbers: NaN, infinities, huge and negative values, and ids that do not exist', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      for (const n of [NaN, Infinity, -Infinity, 1e308, -5, 10.5])
        expect(await core.dispatch('settings.update', { transactionPageSize: n }), String(n)).toMatchObject({
          ok: false,
          error: { field: 'transactionPageSize' },
        });
      for (const id of [0, -1, 1.5, 1e20, NaN])
        expect(await core.dispatch('groups.remove', { id }), String(id)).toMatchObject({ ok: false, error: { field: 'id' } });
      expect(await core.dispatch('groups.remove', { id: 424242 })).toEqual({ ok: true, result: false });
      expect(await core.dispatch('nav.history', { group: 424242 })).toMatchObject({
        ok: false,
        error: { field: 'group', message: 'There is no wallet group 424242.' },
      });
      expect(await core.dispatch('groups.save', { id: 424242, name: 'G', wallets: [] })).toMatchObject({ ok: false, error: { field: 'group' } });
      expect(await core.call('groups.list', undefined)).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('a lone surrogate in a label, tag or group name is refused, not stored as U+FFFD', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], label: 'a\ud800b' })).toMatchObject({
        ok: false,
        error: { field: 'label', message: 'The label contains a broken character (an unpaired U+D800); remove it.' },
      });
      expect(await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], tags: ['x\udc00'] })).toMatchObject({
        ok: false,
        error: { field: 'tags' },
      });
      expect(await core.call('wallets.list', undefined)).toEqual([]);
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Cold 🧊' });
      expect(await core.dispatch('groups.save', { name: 'g\ud800', wallets: [WALLET] })).toMatchObject({ ok: false, error: { field: 'name' } });
      expect(await core.call('groups.list', undefined)).toEqual([]);
      expect((await core.call('wallets.list', undefined))[0]!.label).toBe('Cold 🧊');
    } finally {
      await core.close();
    }
  });
});

describe('an address is never a path', () => {
  it('an export of a wallet whose address holds ../ is written inside the downloads folder', async () => {
    const dir = tempDir();
    const core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      // Any printable ASCII is a valid address on a chain that is not EVM-style.
      const address = '../../../../x';
      await core.call('wallets.add', { address, chains: ['sol'] });
      const [job] = await waitForJobs(core, [(await core.call('export.start', { format: 'csv', report: 'positions', wallet: address, date: '2025-06-01' }))!]);
      expect(job).toMatchObject({ state: 'done' });
      expect(job!.output!.fileName).not.toMatch(/[/\\]/);
      expect(readdirSync(join(dir, 'downloads'))).toEqual([`${job!.output!.downloadId}-${job!.output!.fileName}`]);
      expect(readdirSync(dir).filter((f) => f.endsWith('.csv'))).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
