/** The operation that starts an export of a report (CSV, PDF, iCalendar) as a job. */
import type { Handlers } from '../handlers.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { ReadableDB } from '../store/db.ts';
import { type ExportTarget, startExport } from './export-job.ts';

export interface ReportContext {
  /** The cache open now and its job queue. */
  current(): { db: ReadableDB; queue: JobQueue };
  /** Where the file goes, and the transfer sums brought up to date first (the cache open now). */
  target(): ExportTarget;
}

export function reportHandlers(c: ReportContext): Pick<Handlers, 'export.start'> {
  return {
    'export.start': (req, { person }) => {
      const { db, queue } = c.current();
      return startExport(db, queue, c.target(), req, person);
    },
  };
}
