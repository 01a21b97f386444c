import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/secrets/keychain.ts';
import type { Alert } from '../../src/shared/model.ts';
import { findHealthDip, MONTH_ENDS } from '../support/health-dip.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * A health dip in the reference service's data, synced by a core connected to it with the key
 * in FOLIOSCOPE_ACCESS_KEY: the alert is POSTed as JSON to a local webhook, and nothing the
 * webhook receives (URL, headers, body) holds the key. A webhook that fails or hangs is
 * recorded on the alert and blocks nothing.
 */
const ctx = useSimulator();
const noKeychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let hookUrl = '';
const received: Received[] = [];
let answer: 'ok' | 'fail' | 'hang' = 'ok';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      if (answer === 'hang') return; // never answers
      res.writeHead(answer === 'ok' ? 204 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/folio`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const liveCore = (): Promise<Core> =>
  createCore({ dataDir: tempDir(), shell: 'web', baseUrl: ctx.sim.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY }, keychain: noKeychain, scheduleEveryMs: 0 });

describe('the alert webhook', () => {
  it('receives a health dip as JSON, without the access key; a failing webhook is recorded and blocks nothing', { timeout: 120_000 }, async () => {
    const probe = await liveCore();
    let dip: Awaited<ReturnType<typeof findHealthDip>>;
    try {
      await probe.call('wallets.add', { address: WALLET, chains: ['eth'] });
      dip = await findHealthDip(probe, WALLET, MONTH_ENDS.slice(1), MONTH_ENDS[0]);
    } finally {
      await probe.close();
    }

    const core = await liveCore();
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
      await core.call('settings.update', { alertWebhookUrl: hookUrl });
      const rule = await core.call('alerts.saveRule', { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'health', below: dip.threshold } });
      const fired: Alert[] = [];
      core.on('alert.fired', (a) => fired.push(a));
      await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: dip.from })]);
      await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: dip.to })]);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      expect(fired).toHaveLength(1);

      const [hit] = received;
      expect(hit!.url).toBe('/hooks/folio');
      expect(hit!.headers['content-type']).toBe('application/json');
      const payload = JSON.parse(hit!.body) as Record<string, any>;
      expect(payload).toMatchObject({
        type: 'alert.fired',
        version: 1,
        source: 'folioscope',
        alert: { id: fired[0]!.id, kind: 'health', wallet: WALLET, title: fired[0]!.title, facts: { date: dip.to, below: dip.threshold } },
        rule: { id: rule.id, scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'health', below: dip.threshold } },
      });
      expect(payload['alert'].facts.health).toBeCloseTo(dip.after, 5);
      // The key is nowhere in what the webhook got: not in the URL, a header or the body.
      expect(JSON.stringify(hit)).not.toContain(KEY);
      expect(JSON.stringify(hit).toLowerCase()).not.toContain(KEY.toLowerCase());
      await expect
        .poll(async () => (await core.call('alerts.inbox', undefined)).alerts[0]!.delivery, { timeout: 5_000 })
        .toMatchObject({ state: 'sent', status: 204, error: null });

      // A webhook answering 500: recorded on the alert, the check goes on.
      answer = 'fail';
      await core.call('alerts.removeRule', { id: rule.id });
      await core.call('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'health', below: dip.threshold } });
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
      await expect
        .poll(async () => (await core.call('alerts.inbox', undefined)).alerts[0]!.delivery, { timeout: 5_000 })
        .toMatchObject({ state: 'failed', status: 500, error: 'The webhook answered HTTP 500 (not a success).' });

      // A webhook that never answers: the check returns at once; the post gives up after its timeout.
      answer = 'hang';
      const started = Date.now();
      await core.call('alerts.saveRule', {
        scope: { kind: 'group', id: (await core.call('groups.save', { name: 'G', wallets: [WALLET] })).id },
        condition: { kind: 'health', below: dip.threshold },
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(3);
      await expect
        .poll(async () => (await core.call('alerts.inbox', undefined)).alerts[0]!.delivery, { timeout: 10_000 })
        .toMatchObject({ state: 'failed', status: null, error: 'No answer within 5 s.' });
    } finally {
      await core.close();
    }
  });
});
