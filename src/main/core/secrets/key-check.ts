/**
 * Checks a key with one cheap request before the app says "Connected": the latest
 * positions of a fixed, well-formed address on one chain (one small page, no history).
 * 401/403 means refused; an answer past authentication means accepted; no answer (network,
 * timeout, 5xx, rate limit) means it could not be verified, and says so.
 */

import { createServiceClient, AuthError, NetworkError, RateLimitedError, ServerError, ServiceError } from '../service/index.ts';
import type { KeyCheck } from '../../../shared/contract.ts';

const PROBE = { wallet: '0x0000000000000000000000000000000000000001', chain: 'eth' };

export async function checkKey(baseUrl: string, key: string | null, options: { timeoutMs?: number; fetch?: typeof globalThis.fetch } = {}): Promise<KeyCheck> {
  if (!key) return { state: 'none', message: 'No access key is set for this service: set one to fetch data.' };
  const client = createServiceClient({
    baseUrl,
    accessKey: key,
    concurrency: 1,
    policy: { maxAttempts: 1, timeoutMs: options.timeoutMs ?? 10_000 },
    ...(options.fetch && { fetch: options.fetch }),
  });
  try {
    await client.allPositions(PROBE);
    return { state: 'accepted', message: 'The service accepted the access key.' };
  } catch (err) {
    if (err instanceof AuthError)
      return { state: 'refused', message: `The service refused this access key (HTTP ${err.status}). Nothing was changed: check the key and try again.` };
    if (err instanceof NetworkError || err instanceof ServerError || err instanceof RateLimitedError) {
      return { state: 'unverified', message: `The access key could not be verified: ${err.message}` };
    }
    // The service answered past its key check (a 400 for the probe, an unreadable body):
    // the key was not refused, but nothing proves it works either.
    if (err instanceof ServiceError)
      return { state: 'unverified', message: `The service did not refuse the key, but its answer to the check was not usable: ${err.message}` };
    throw err;
  }
}
