/**
 * Exports started from the app: a job on the sync queue (progress, cancel), writing where
 * the shell says (the desktop's save dialog, the CLI's --out) or, without one, to the data
 * folder's downloads under a random id, for the web shell to serve once (src/main/web/downloads.ts).
 */

import { heapBoundedWhile } from '../heap.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { ExportRequest } from '../../../shared/contract.ts';
import type { JobInfo, JobTitle } from '../../../shared/model.ts';
import type { ReadableDB } from '../store/db.ts';
import type { JobQueue } from '../jobs/index.ts';
import { ValidationError } from '../store/validation.ts';
import { addressKey } from '../store/address-key.ts';
import { exportCsv } from './csv-reports.ts';
import type { Completeness } from '../../../shared/conventions.ts';
import { transactionsCoverage } from '../transactions/index.ts';
import { getWallet, listWallets } from '../store/wallets.ts';
import { writeAtomically } from './files.ts';
import { exportIcs } from './ics.ts';
import { getGroup } from '../store/groups.ts';
import { settingsFor } from '../people/index.ts';
import { getSettings } from '../store/settings.ts';
import { portfolioView, VIEW_OF, walletsOf } from '../portfolio/index.ts';
import { scopeNameOf, scopePack } from '../pack/index.ts';
import { closeBundle, closeInForce, getCloseRecord } from '../closes/index.ts';
import type { MonthlyPack } from '../../../shared/pack.ts';
import { changesFigures, type PeriodClose } from '../../../shared/closes.ts';
import type { PackClosed } from './pack-pdf.ts';
import { reconcile } from '../analytics/index.ts';
import { portfolioNav } from '../portfolio/index.ts';
import { memberNames } from '../../../shared/portfolio/view.ts';

/** What a file to save is: a report's format, or `json`, the user's data file (userdata/export-job.ts). */
export type SaveFormat = ExportRequest['format'] | 'json';

export interface ExportTarget {
  /** Asks where to save; null when the user cancels. Absent in the web shell. */
  chooseSavePath?: (defaultName: string, format: SaveFormat) => Promise<string | null>;
  /** Folder for web downloads. */
  downloadsDir: string;
  /**
   * Brings the daily transfer sums of these wallets up to date before a report that reconciles
   * reads them: the core's writer side (absent on a read-only cache, whose report then sums the
   * transactions directly). A report only reads.
   */
  keepTransferDays?: (wallets: readonly string[]) => void;
}

/**
 * The PDF writers, loaded when a PDF is first written: pdfkit and fontkit take about a third of
 * a `folioscope` command's start, and most commands (a sync from cron, `portfolio --json`)
 * never draw a page.
 */
async function pdfWriters() {
  const [{ exportPdf }, { writePackPdf }] = await Promise.all([import('./pdf.ts'), import('./pack-pdf.ts')]);
  return { exportPdf, writePackPdf };
}

/** Where an export without a save path is written: the download id names it. */
export function downloadPath(downloadsDir: string, downloadId: string, fileName: string): string {
  // One file name, never a path: no separator in it can lead out of the downloads folder.
  return join(downloadsDir, `${downloadId}-${fileName}`.replace(/[/\\]/g, '-'));
}

/**
 * A wallet's address as a file-name part: letters and digits only. An address of a non-EVM
 * chain is any printable ASCII, so it may hold "/", "\\" or "..", which would make the name a path.
 */
const walletPart = (address: string) => address.slice(0, 10).replace(/[^A-Za-z0-9]/g, '-');

/** A group's name as a file-name part: letters and digits only, else its id. */
function groupPart(id: number, name: string | undefined): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug ? `group-${slug}` : `group-${id}`;
}

export function defaultFileName(req: ExportRequest, groupName?: string): string {
  if (req.format === 'bundle') return `folioscope-close-${req.close ?? 0}-bundle.zip`;
  const scope = req.wallet ? walletPart(req.wallet) : req.group !== undefined ? groupPart(req.group, groupName) : 'all-wallets';
  if (req.format === 'ics') return `folioscope-unlocks-${scope}-${req.date ?? 'now'}.ics`;
  const when = req.from || req.to ? `${req.from ?? 'start'}_${req.to ?? req.date ?? 'now'}` : (req.date ?? 'all-dates');
  if (req.format === 'pdf') return `folioscope-${req.document === 'pack' ? 'pack' : 'report'}-${scope}-${when}.pdf`;
  return `folioscope-${req.report}-${scope}-${when}.csv`;
}

/** `person`: a team server's person who asked, whose own language a PDF is written in (people/display.ts `settingsFor`). */
export async function startExport(db: ReadableDB, queue: JobQueue, target: ExportTarget, req: ExportRequest, person?: string): Promise<JobInfo | null> {
  if (req.format === 'bundle') return startBundle(db, queue, target, req);
  if (req.close !== undefined) throw new ValidationError('close', 'Only a bundle names a close: choose format bundle, or leave the close out.');
  if (req.format === 'csv' && !req.report) throw new ValidationError('report', 'Choose which report to export.');
  const isPack = (req.format === 'pdf' && req.document === 'pack') || (req.format === 'csv' && req.report === 'pack');
  if (isPack && (!req.from || !req.to)) throw new ValidationError('from', 'Choose the period of the pack (from and to, or a month).');
  if ((req.format === 'ics' || (req.format === 'pdf' && !isPack)) && !req.date) throw new ValidationError('date', 'Choose the date of the report.');
  if (req.wallet && req.group !== undefined) throw new ValidationError('group', 'Choose a wallet or a group, not both.');
  // A group's members, checked before any file is chosen or written.
  const group = req.group !== undefined ? getGroup(db, req.group) : undefined;
  const wallets = group?.wallets;
  if (wallets && !wallets.length) throw new ValidationError('group', 'The group has no wallets.');
  if (req.wallet && !listWallets(db).some((w) => w.address === addressKey(req.wallet!)))
    throw new ValidationError('wallet', `${req.wallet} is not a watched wallet.`);
  const fileName = defaultFileName(req, group?.name);
  let path: string;
  let downloadId: string | null = null;
  if (target.chooseSavePath) {
    const chosen = await target.chooseSavePath(fileName, req.format);
    if (!chosen) return null; // the user cancelled the dialog
    path = chosen;
  } else {
    mkdirSync(target.downloadsDir, { recursive: true, mode: 0o700 });
    downloadId = randomBytes(12).toString('base64url');
    path = downloadPath(target.downloadsDir, downloadId, fileName);
  }
  const label =
    req.format === 'pdf' && isPack
      ? `Monthly pack (PDF) ${req.from} to ${req.to}`
      : req.format === 'pdf'
        ? `Portfolio report (PDF) as of ${req.date}`
        : req.format === 'ics'
          ? `Unlock calendar (iCalendar) from ${req.date}`
          : `Export ${req.report} (CSV)`;
  const title: JobTitle =
    req.format === 'pdf' && isPack
      ? { kind: 'pack-pdf', from: req.from!, to: req.to! }
      : req.format === 'pdf'
        ? { kind: 'report-pdf', date: req.date! }
        : req.format === 'ics'
          ? { kind: 'unlock-calendar', date: req.date! }
          : { kind: 'export-csv', report: String(req.report) };
  // The PDFs follow the user's locale setting as it is when the export is asked for (a team
  // server's person's own, as their screens show), passed down to the writer (null: en-US,
  // pdf-format.ts); a CSV stays English with "." decimals (docs/design-notes.md), an iCalendar
  // file is a machine format.
  const locale = req.format === 'pdf' ? settingsFor(db, person).settings.locale : null;
  const job = queue.enqueue(
    'export',
    label,
    // An export may parse every snapshot of its dates (a fund's PDF or pack): the heap is kept near what it holds (../heap.ts).
    heapBoundedWhile(async (ctx) => {
      ctx.progress({ phase: 'writing', done: 0, total: null });
      if (req.from && req.to && (req.format === 'pdf' || req.report === 'reconciliation' || req.report === 'pack')) {
        target.keepTransferDays?.(wallets ?? (req.wallet ? [addressKey(req.wallet)] : listWallets(db).map((w) => w.address)));
      }
      // What was written, for the shell to say: CSV rows, PDF pages, iCalendar events (as rows).
      let written: { rows?: number; pages?: number };
      // A closed period's pack is its figures as stored at close, never built again (docs/closes.md):
      // its files regenerate byte for byte, and say so when its data changed since.
      const closed = isPack
        ? closeInForce(
            db,
            { kind: group ? 'group' : req.wallet ? 'wallet' : 'all', wallet: req.wallet ? addressKey(req.wallet) : null, group: group?.id ?? null },
            req.from!,
            req.to!,
          )
        : null;
      // Otherwise the pack is built once; its file (PDF or CSV) says what it leaves out, and so does the job.
      const pack = closed
        ? closed.pack
        : isPack
          ? scopePack(db, {
              wallets: walletsOf(db, wallets ?? (req.wallet ? [addressKey(req.wallet)] : undefined)),
              from: req.from!,
              to: req.to!,
              scope: scopeNameOf({ group, wallet: req.wallet ? getWallet(db, req.wallet)! : undefined }),
            })
          : undefined;
      if (pack) ctx.judge(packCompleteness(pack));
      // Whose and which period's data a report (PDF) or a CSV is read for.
      const scopeAndPeriod = {
        ...(req.wallet && { wallet: req.wallet }),
        ...(group && { wallets: group.wallets, groupName: group.name }),
        ...(req.from && { from: req.from }),
        ...(req.to && { to: req.to }),
      };
      if (pack && req.format === 'pdf') {
        const labels = new Map(listWallets(db).map((w) => [w.address, w.label]));
        // Dated the end of its closing day: the same cache gives the same bytes.
        const meta = closed
          ? {
              at: closed.closedAt!,
              labels,
              closed: packClosed(closed),
            }
          : { at: `${req.to}T23:59:59.000Z`, labels };
        const { writePackPdf } = await pdfWriters();
        const { pages } = await writeAtomically(path, (out) => writePackPdf(pack, meta, out, locale));
        written = { pages };
      } else if (req.format === 'pdf') {
        const { exportPdf } = await pdfWriters();
        const { pages } = await writeAtomically(path, (out) => exportPdf(db, { date: req.date!, ...scopeAndPeriod }, out, locale));
        written = { pages };
      } else if (req.format === 'ics') {
        const labels = new Map(listWallets(db).map((w) => [w.address, w.label]));
        const { events } = await writeAtomically(path, (out) =>
          exportIcs(db, { date: req.date!, ...((wallets ?? req.wallet) && { wallets: wallets ?? [addressKey(req.wallet!)] }), labels }, out),
        );
        written = { rows: events }; // one event per unlock
      } else {
        const { rows } = await writeAtomically(path, (out) =>
          exportCsv(
            db,
            {
              report: req.report!,
              ...scopeAndPeriod,
              ...(req.date && { date: req.date }),
              ...(req.filter && { filter: req.filter }),
              ...(pack && { pack }),
              ...(closed && {
                packClosed: packClosed(closed),
              }),
            },
            out,
            (done, total) => ctx.progress({ done, total }),
            ctx.signal,
          ),
        );
        written = { rows };
      }
      // What the file stands on: the transactions of its period (a PDF, the transactions CSV)
      // and the positions of every member at its date (a PDF, the position CSVs, the unlock
      // calendar: an empty calendar of a date not cached would read as "no unlocks").
      const view = req.format === 'pdf' || req.format === 'ics' ? 'allPositions' : req.report ? POSITION_REPORTS[req.report] : undefined;
      // A PDF lists transactions only for a period: without one it stands on positions alone.
      const transactions = (req.format === 'pdf' && !!(req.from || req.to)) || req.report === 'transactions';
      const rollForward = req.report === 'reconciliation' && req.from && req.to ? { from: req.from, to: req.to } : undefined;
      if (!pack && (view || transactions || rollForward || req.report === 'history'))
        ctx.judge(
          exportCompleteness(db, {
            ...req,
            ...(wallets && { wallets }),
            ...(view && req.date && { positionsAt: { date: req.date, view } }),
            ...(rollForward && { rollForward }),
            history: req.report === 'history',
            transactions,
          }),
        );
      // The file's place, for the UI: set before the job's final progress event.
      job.info.output = { fileName, path: downloadId ? null : path, downloadId, ...written };
    }),
    req.wallet ? addressKey(req.wallet) : null,
    { title },
  );
  return job.info;
}

/** Where an export is written: the shell's choice (null: the user cancelled), or the downloads folder under a random id. */
async function exportPath(target: ExportTarget, fileName: string, format: SaveFormat): Promise<{ path: string; downloadId: string | null } | null> {
  if (target.chooseSavePath) {
    const chosen = await target.chooseSavePath(fileName, format);
    return chosen ? { path: chosen, downloadId: null } : null;
  }
  mkdirSync(target.downloadsDir, { recursive: true, mode: 0o700 });
  const downloadId = randomBytes(12).toString('base64url');
  return { path: downloadPath(target.downloadsDir, downloadId, fileName), downloadId };
}

/** What a writer of a stream writes, held in memory (a bundle's documents, each a part of one zip). */
async function bytesOf(write: (out: Writable) => Promise<unknown>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await write(out);
  if (!out.writableEnded) out.end();
  await new Promise<void>((resolve, reject) => {
    if (out.writableFinished) return resolve();
    out.once('finish', resolve);
    out.once('error', reject);
  });
  return Buffer.concat(chunks);
}

/**
 * A closed period's auditor's bundle (closes/bundle.ts): its pack's PDF and CSV as a closed
 * period's are written (its stored figures, who closed it, what changed since), the audit trail
 * from the period's first day, and every input its hash covers, in one zip.
 */
async function startBundle(db: ReadableDB, queue: JobQueue, target: ExportTarget, req: ExportRequest): Promise<JobInfo | null> {
  if (req.close === undefined) throw new ValidationError('close', 'Choose the closed period to bundle (its id: folioscope close list).');
  const c = getCloseRecord(db, req.close);
  if (!c) throw new ValidationError('close', `There is no close ${req.close}.`);
  // A prepared close (not yet approved) or a rejected one is no closed period: nothing for an auditor.
  if (c.closedAt === null) throw new ValidationError('close', `Close ${c.id} is ${c.state}, not closed: only a closed period has an auditor's bundle.`);
  const fileName = defaultFileName(req);
  const where = await exportPath(target, fileName, 'bundle');
  if (!where) return null;
  // The books' language, whoever asks: the bundle is the period's record, the same for every auditor.
  const locale = getSettings(db).locale;
  const job = queue.enqueue(
    'export',
    `Auditor's bundle of close ${c.id} (${c.from} to ${c.to})`,
    // The bundle is built in memory: the heap is kept near what it holds (../heap.ts).
    heapBoundedWhile(async (ctx) => {
      ctx.progress({ phase: 'writing', done: 0, total: null });
      const closed = packClosed(c);
      const { writePackPdf } = await pdfWriters();
      const labels = new Map(listWallets(db).map((w) => [w.address, w.label]));
      // The pack's rows are the stored figures alone: no scope is read (a member no longer watched is no refusal).
      const docs = {
        'pack.pdf': await bytesOf((out) => writePackPdf(c.pack, { at: closed.at, labels, closed }, out, locale)),
        'pack.csv': await bytesOf((out) => exportCsv(db, { report: 'pack', from: c.from, to: c.to, pack: c.pack, packClosed: closed }, out)),
        'audit.csv': await bytesOf((out) => exportCsv(db, { report: 'audit', from: c.from }, out)),
      };
      ctx.signal.throwIfAborted();
      const zip = closeBundle(db, c.id, docs);
      await writeAtomically(where.path, async (out) => void out.write(zip));
      job.info.output = { fileName, path: where.downloadId ? null : where.path, downloadId: where.downloadId };
    }),
    null,
    { title: { kind: 'close-bundle', id: c.id, from: c.from, to: c.to } },
  );
  return job.info;
}

/** A pack's file stands on the pack: complete, or partial with its reasons (the CLI exits 3). */
/** A closed period's record as its pack's PDF and CSV say it: who closed (approved) and prepared it, when, its hash, what changed since. */
function packClosed(c: PeriodClose): PackClosed {
  return {
    at: c.closedAt!,
    by: c.closedBy,
    prepared: c.preparedAt === null ? null : { at: c.preparedAt, by: c.preparedBy },
    samePerson: c.samePerson,
    hash: c.hash,
    changed: changesFigures(c.flag) ? c.flag!.summary : null,
  };
}

function packCompleteness(pack: MonthlyPack): Completeness {
  return pack.complete
    ? { state: 'complete', reasons: [], action: null }
    : { state: 'incomplete', reasons: pack.reasons, action: 'Sync the dates and transactions named, then export again.', partial: true };
}

/** How old the newest sync may be for a period that runs into today to count as complete to now. */
const RECENT_SYNC_S = 15 * 60;

/** The view of the portfolio a CSV report writes, for the reports of positions at a date. */
const POSITION_REPORTS: Partial<Record<NonNullable<ExportRequest['report']>, CoverageView>> = {
  positions: 'allPositions',
  underlying: 'positionsByUnderlying',
  liquidity: 'liquidityAnalysis',
};
type CoverageView = 'allPositions' | 'positionsByUnderlying' | 'liquidityAnalysis';

/**
 * Whether what an export stands on is proved complete (why not, and what to do): the
 * transactions over its period (unless `transactions` is false), and with `positionsAt` every
 * member's positions at the date, judged by the one portfolio view (core/portfolio/view.ts).
 */
export function exportCompleteness(
  db: ReadableDB,
  req: {
    wallet?: string | undefined;
    wallets?: readonly string[] | undefined;
    from?: string | undefined;
    to?: string | undefined;
    date?: string | undefined;
    positionsAt?: { date: string; view: CoverageView };
    /** A roll-forward's two dates: its problems (analytics/store/reconcile.ts) are the file's. */
    rollForward?: { from: string; to: string };
    /** NAV over dates: each date that lacks a member. */
    history?: boolean;
    transactions?: boolean;
  },
): Completeness {
  const wallets = listWallets(db).filter((w) => (!req.wallet || w.address === addressKey(req.wallet)) && (!req.wallets || req.wallets.includes(w.address)));
  const reasons: string[] = [];
  const nameOf = (wallet: string, chain: string) => memberNames([{ wallet, chain, label: wallets.find((w) => w.address === wallet)?.label ?? null }])[0]!;
  const members = req.positionsAt ? portfolioView(db, wallets, req.positionsAt.date).members : [];
  if (req.positionsAt) {
    const { date, view } = req.positionsAt;
    const missing = members.filter((m) => !m.views[VIEW_OF[view]]);
    for (const [i, name] of memberNames(missing).entries()) {
      const m = missing[i]!;
      const near = [m.nearestBefore, m.nearestAfter].filter(Boolean).join(' and ');
      reasons.push(`${name}: not cached at ${date}, so not in the figures${near ? ` (cached at ${near}; not used)` : ''}.`);
    }
  }
  if (req.rollForward) {
    const r = reconcile(db, { wallets: wallets.map((w) => w.address), ...req.rollForward });
    for (const p of r.problems) reasons.push(`${nameOf(p.wallet, p.chain)}: ${p.message}`);
  }
  if (req.history) {
    const points = portfolioNav(db, { wallets: wallets.map((w) => w.address), ...(req.from && { from: req.from }), ...(req.to && { to: req.to }) }).points;
    for (const p of points.filter((x) => x.missing.length))
      reasons.push(`${p.date}: a partial total, without ${p.missing.map((m) => nameOf(m.wallet, m.chain)).join(', ')}.`);
  }
  const partial = reasons.length > 0;
  if (req.transactions !== false) {
    const fromS = req.from ? Date.parse(`${req.from}T00:00:00Z`) / 1000 : 0;
    const to = req.to ?? req.date;
    // A period that runs on past now (today, not over) can be proved only up to a sync: one that
    // ended within RECENT_SYNC_S counts as "up to now" (a sync right before the export must not
    // be told "incomplete, sync again", which a new sync could never mend); an older one does not.
    const nowS = Math.floor(Date.now() / 1000);
    const endS = to ? Date.parse(`${to}T23:59:59Z`) / 1000 : nowS;
    const toS = endS > nowS ? nowS - RECENT_SYNC_S : endS;
    // A report whose period ends on its positions' date (today, say) shows holdings of the moment
    // the service sent them: its transactions need be proved only up to that moment, wallet
    // chain by wallet chain (as the roll-forward does, analytics/store/reconcile.ts).
    const atPositions = req.positionsAt && to === req.positionsAt.date;
    for (const w of wallets)
      for (const chain of w.chains) {
        const fetched = atPositions ? members.find((m) => m.wallet === w.address && m.chain === chain)?.fetchedAt : undefined;
        const bound = fetched ? Math.min(toS, Math.floor(Date.parse(fetched) / 1000)) : toS;
        reasons.push(...transactionsCoverage(db, [{ address: w.address, chains: [chain], label: w.label }], fromS, bound));
      }
  }
  return reasons.length
    ? { state: 'incomplete', reasons, action: 'Sync again, then export again.', ...(partial && { partial }) }
    : { state: 'complete', reasons: [], action: null };
}
