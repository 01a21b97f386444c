import { createServiceClient } from '../../src/main/core/service/client.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { SyncEngine, type SyncEngineOptions } from '../../src/main/core/sync/engine.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { KEY, SIM_NOW } from './sim.ts';

/** A client and a sync engine against a simulator, with fast retries for the tests. */
export function engineFor(sim: Simulator, db: WritableDB, options: Partial<SyncEngineOptions> = {}) {
  const client = createServiceClient({
    baseUrl: sim.url,
    accessKey: KEY,
    concurrency: 4,
    policy: { timeoutMs: 2000, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 },
  });
  const engine = new SyncEngine({ db, client, now: () => SIM_NOW, ...options });
  return { client, engine };
}
