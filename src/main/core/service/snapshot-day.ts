import type { ServiceClient } from './client.ts';
import { toIsoDatetime, utcDay, writtenDay } from '../../../shared/service/normalize.ts';

/**
 * The day the service's latest snapshot is for. When the day it wrote and the UTC day of its
 * datetime agree, that day. When they differ (`2025-06-02T01:00:00+02:00` is 1 June in UTC
 * and 2 June as written) the service is asked for each day in turn: the one whose answer
 * carries the same datetime is the day (one or two extra requests, only in that case). When
 * neither does, the day as written, which is what the service said.
 */
export async function latestSnapshotDay(
  client: ServiceClient,
  q: { wallet: string; chain: string },
  serviceDate: string | null,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (serviceDate === null) return undefined;
  const written = writtenDay(serviceDate);
  const utc = utcDay(serviceDate);
  if (!written || !utc || written === utc) return written ?? undefined;
  const instant = toIsoDatetime(serviceDate);
  for (const day of [written, utc]) {
    try {
      const probe = await client.allPositions({ ...q, date: day }, signal);
      if (toIsoDatetime(probe.data[0]?.service_date ?? null) === instant) return day;
    } catch (err) {
      if (signal?.aborted) throw err;
      // A day the service refuses (e.g. "in the future" by its clock) is not the one.
    }
  }
  return written;
}
