/**
 * The operations that say what is known of the service: the conventions learned of it, a fresh
 * check of them, and the service check ("doctor"), kept from its last run.
 */
import type { ConventionsReport } from '../../../shared/conventions.ts';
import type { Handlers } from '../handlers.ts';
import type { WritableDB } from '../store/db.ts';
import { getSettings } from '../store/settings.ts';
import { listWallets } from '../store/wallets.ts';
import { conventionItems, runServiceCheck } from './check.ts';
import type { ServiceClient } from './client.ts';
import { loadServiceCheck, saveServiceCheck } from './store/check.ts';
import { conventionsReport } from './store/conventions.ts';

export interface ServiceContext {
  /** The service and cache open now. */
  current(): { db: WritableDB; client: ServiceClient; baseUrl: string; mode: 'demo' | 'live' };
  /** Learns the service's conventions again (the sync engine's run). */
  checkConventions(): Promise<ConventionsReport>;
  /**
   * The core's clock in ms (CoreOptions.now): the check is stamped by the same clock the sync
   * and the audit read, so a pinned test (or demo) shows one "now", not the machine's beside it.
   */
  now?: () => number;
}

type ServiceOperations = 'service.conventions' | 'service.check' | 'service.doctor';

export function serviceHandlers(c: ServiceContext): Pick<Handlers, ServiceOperations> {
  return {
    'service.conventions': () => conventionsReport(c.current().db),
    'service.check': () => c.checkConventions(),
    'service.doctor': async (input) => {
      const p = c.current();
      // The checks of datetimes, numbers and snapshot days are kept from the last run; the
      // learned conventions are read fresh (syncs learn and re-learn them between runs).
      if (!input?.run) {
        const last = loadServiceCheck(p.db);
        if (!last) return { baseUrl: p.baseUrl, mode: p.mode, checkedAt: null, probe: null, requests: 0, items: [] };
        return { ...last, items: [...last.items.filter((i) => !/^(convention|anomaly)-/.test(i.id)), ...conventionItems(conventionsReport(p.db))] };
      }
      // Probes ask about a watched wallet when there is one (a real service knows it), else the zero address.
      const w = listWallets(p.db)[0];
      const check = await runServiceCheck({
        client: p.client,
        baseUrl: p.baseUrl,
        mode: p.mode,
        wallet: w?.address ?? '0x0000000000000000000000000000000000000000',
        chain: w?.chains[0] ?? getSettings(p.db).chains[0]!,
        extra: [async () => conventionItems(await c.checkConventions())],
        ...(c.now && { now: () => new Date(c.now!()) }),
      });
      check.requests += conventionsReport(p.db).requests; // the learning run's requests too
      saveServiceCheck(p.db, check);
      return check;
    },
  };
}
