import type { PortfolioView } from './portfolio/view.ts';
import type { PortfolioChange } from './portfolio/change.ts';
import { ROW_PAGE_MAX, ROW_SORTS, ROW_TABLES, type PortfolioSummary, type RowsPage } from './portfolio/summary.ts';
import type { MonthlyPack } from './pack.ts';
import { REOPEN_REASON_MAX, type CloseCheck, type PeriodClose, type PeriodCloseDetail } from './closes.ts';
import { z } from 'zod';
import type {
  DateDiff,
  Exposure,
  JobInfo,
  KeyStatus,
  LogSet,
  NavSeries,
  Reconciliation,
  RiskOverview,
  HealthHistory,
  UnlockLadder,
  WalletGroup,
  ReconcileTraceRow,
  SerializedError,
  ServiceCheck,
  SnapshotDataByEndpoint,
  SnapshotEndpoint,
  StoredSnapshot,
  TimelinePage,
  Wallet,
  Schedule,
  DueRuns,
  BackupInfo,
  CacheLockState,
  ConversionProgress,
  EncryptionStatus,
  BackupList,
  BackupVerification,
  RestoreResult,
  UserDataPreview,
  Alert,
  AlertInbox,
  AlertRule,
  TransactionChange,
  AuditEntry,
  Category,
  CategoryRule,
  RulePreview,
  TxnAnnotation,
  Counterparty,
  CounterpartyExport,
  CounterpartyImportPreview,
  WalletExport,
  WalletImportPreview,
} from './model.ts';
import type { EventName, OperationName } from './operations.ts';
import type { Permission, Role } from './roles.ts';
import type { SpamExplanation, SpamListInfo, SpamMark } from './spam.ts';
import { isoDateToUtcMs } from './dates.ts';
import { isSupportedLocale } from './locale.ts';
import type { ConventionsReport } from './conventions.ts';
import { unsafeChars, unsafeCharsProblem } from './text-safety.ts';

/**
 * The contract: every operation the renderer may ask of the main process, with the schema
 * its input must pass (checked in main, whatever the shell) and the type of its result,
 * and every event main may send. The preload, the web shell and the renderer's client
 * are all derived from this one description.
 */

/**
 * The largest list and the longest text each operation takes, so no input can make the app
 * store, loop over or send more than any real use needs (a settings update of 100,000 chains
 * was accepted, and every later read of the settings paid for it). Generous: a real wallet is
 * on a few chains, a fund's group has tens of wallets. A longer input is refused with the
 * field and the limit (README, "Limits of what the app takes"); test/security/bad-input-is-refused-whole.test.ts
 * walks every operation's schema and fails when a list or a text has no maximum.
 */
export const LIMITS = {
  /** Chains of a wallet, of the settings, of a filter. */
  chains: 100,
  /** Wallets in one group. */
  groupWallets: 500,
  /** Tags of a wallet. */
  tags: 50,
  /** Values of one timeline filter (action types, protocols, tokens, statuses). */
  filterValues: 50,
  /** A group's name. */
  groupName: 100,
  /** Backups kept (settings' backupKeep). */
  backupsKept: 100,
  /** The recent window a user may set, in hours (90 days: wider, a sync re-reads months every time). */
  recentWindowHours: 2160,
  /** A data file to import, in characters (the web shell takes bodies of at most 1 MiB; the CLI and the app more). */
  userDataChars: 8 * 1024 * 1024,
  /** A passphrase. */
  passphrase: 1024,
  /** An address-book CSV to import, in characters (10,000 rows of a few hundred characters). */
  counterpartyCsvChars: 4 * 1024 * 1024,
  /** A wallets CSV: 20,000 rows of an address, a label, chains, tags and groups. */
  walletCsvChars: 8 * 1024 * 1024,
  /** Wallets edited in one step: as many as a wallets CSV holds. */
  bulkWallets: 20_000,
  /** A spam list to import (docs/spam.md), in characters: tens of thousands of entries. */
  spamListChars: 8 * 1024 * 1024,
} as const;

// One strict check for every date the contract takes: a real calendar day (not 2025-02-30).
const date = z
  .string()
  .max(10)
  .refine((v) => isoDateToUtcMs(v) !== null, 'expected a real date YYYY-MM-DD');
/** A range's end must not come before its start (both optional). */
const ordered = (r: { from?: string | undefined; to?: string | undefined }) => !r.from || !r.to || r.from <= r.to;
const orderedMessage = { message: 'the end date is before the start date', path: ['to'] };
const address = z.string().min(1).max(128);
// The max is the regex's too; spelled out so the limit is visible to the schema walk.
const chainId = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'expected a chain id');
const chainList = z.array(chainId).max(LIMITS.chains, `at most ${LIMITS.chains} chains`);
const filterList = <T extends z.ZodType>(item: T) => z.array(item).max(LIMITS.filterValues, `at most ${LIMITS.filterValues} values`);
/**
 * A name the user gives: nothing invisible or text-moving (the same rule and message as
 * labels and tags, store/wallets.ts), checked here so every shell refuses it alike.
 */
const safeText = (what: string, max: number) =>
  z
    .string()
    .max(max, `${what} is too long (at most ${max} characters)`)
    .superRefine((v, ctx) => {
      const unsafe = unsafeChars(v);
      // `unsafe` goes with the issue: a screen in another language says it (core util/errors.ts schemaError).
      if (unsafe) ctx.addIssue({ code: 'custom', message: `The ${what} ${unsafeCharsProblem(v)}.`, params: { unsafe } });
    });
const empty = z.strictObject({}).optional();

/**
 * The settings as the cache keeps them (read back one by one, see store/settings.ts). The
 * access key is not a setting: it lives in the OS keychain, and this schema refuses any
 * member not listed here.
 */
export const SettingsSchema = z.strictObject({
  baseUrl: z.string().max(2048).url().nullable(),
  chains: chainList.min(1),
  theme: z.enum(['system', 'light', 'dark']),
  /** Where fired alerts are POSTed as JSON (http or https), or null for none. */
  alertWebhookUrl: z
    .string()
    .max(2048)
    .url()
    .refine((v) => /^https?:\/\//i.test(v), 'a webhook URL must start with http:// or https://')
    .nullable(),
  locale: z.string().min(2).max(35).refine(isSupportedLocale, 'not a locale this system supports (use a tag such as en-US or de-DE)').nullable(),
  /** Times in the timeline: UTC (the service's) or the computer's time zone. */
  timeZone: z.enum(['utc', 'local']),
  transactionPageSize: z.number().int().min(10).max(1000),
  /**
   * How far back every transaction sync reads the service's recent history again (hours), at
   * least: null uses the default (24 h) widened by what is learned (transactions/recent.ts, docs/service.md).
   */
  recentWindowHours: z
    .number()
    // The bounds first: a number past them (1e308) is refused as over the limit, not as "too big
    // for an integer", which is what the integer check alone says of it.
    .min(1, 'must be at least 1 hour')
    .max(LIMITS.recentWindowHours, `must be at most ${LIMITS.recentWindowHours.toLocaleString('en-US')} hours (90 days)`)
    .int('must be whole hours')
    .nullable(),
  /** A checked backup of the cache every day while the app or web shell runs (docs/data-format.md). */
  backupEnabled: z.boolean(),
  /** How many backups to keep (the newest; backups made before a migration are never pruned). */
  backupKeep: z.number().int().min(1).max(LIMITS.backupsKept),
});
export type StoredSettings = z.output<typeof SettingsSchema>;

const minute = z.number().int().min(0).max(59);
const hour = z.number().int().min(0).max(23);
export const CadenceSchema = z.discriminatedUnion('every', [
  z.strictObject({ every: z.literal('hour'), minute }),
  z.strictObject({ every: z.literal('day'), hour, minute }),
  /** 0 is Sunday, as in Date.getDay. */
  z.strictObject({ every: z.literal('week'), weekday: z.number().int().min(0).max(6), hour, minute }),
]);
export const ScheduleScopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('wallet'), address }),
  z.strictObject({ kind: z.literal('group'), id: z.number().int().positive() }),
]);
/**
 * The version of a record the editor loaded (its `version`, core/store/versions.ts): an edit or
 * removal of a record changed since is refused (kind `conflict`, naming who changed it and when)
 * rather than overwriting that change. Omitted, nothing is checked (the CLI edits what is there now).
 */
const expectedVersion = z.number().int().min(0).optional();

/** `schedules.save`: a new schedule, or (with its id) a changed one. */
export const ScheduleInput = z.strictObject({
  id: z.number().int().positive().optional(),
  scope: ScheduleScopeSchema,
  what: z.enum(['positions', 'transactions', 'both']),
  cadence: CadenceSchema,
  /** The zone the hour is given in; absent, the display setting's at the time it is saved. */
  zone: z.enum(['utc', 'local']).optional(),
  expectedVersion,
});

/** `alerts.saveRule`: a new rule, or (with its id) a changed one (README, "Alerts"). */
export const AlertConditionSchema = z.discriminatedUnion('kind', [
  /** Health = collateral/debt × liquidation threshold (src/shared/portfolio/risk.ts). */
  z.strictObject({ kind: z.literal('health'), below: z.number().gt(0).max(100) }),
  z.strictObject({ kind: z.literal('unlock'), withinDays: z.number().int().min(1).max(3650) }),
  z.strictObject({ kind: z.literal('nav-move'), percent: z.number().gt(0).max(1000) }),
  z.strictObject({ kind: z.literal('outflow'), symbol: safeText('token symbol', 64).min(1), above: z.number().min(0).max(1e15) }),
  z.strictObject({ kind: z.literal('new-counterparty') }),
  z.strictObject({ kind: z.literal('stale'), hours: z.number().int().min(1).max(8760) }),
]);
export const AlertRuleInput = z.strictObject({
  id: z.number().int().positive().optional(),
  scope: ScheduleScopeSchema,
  condition: AlertConditionSchema,
  expectedVersion,
});
/** A time to snooze an alert until: an ISO 8601 datetime. */
const instant = z
  .string()
  .max(40)
  .refine((v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) && Number.isFinite(Date.parse(v)), 'expected a date and time (ISO 8601)');

/**
 * `settings.update`: any of the settings but the base URL (connecting sets that), with the
 * settings' `version` as the screen loaded it: a setting someone changed since is not changed over
 * (store/versions.ts `checkUnchangedSince`); the others may be.
 */
export const SettingsInput = SettingsSchema.omit({ baseUrl: true }).partial().extend({ expectedVersion });

/**
 * The settings a person on a team server chooses for themselves (docs/team.md, "Each person's
 * display"): how they read the books, never what the books hold. Without a person (the app, the
 * loopback web shell, the CLI on its own cache) they are the books' settings, as any other.
 */
export const DISPLAY_SETTINGS = ['theme', 'locale', 'timeZone'] as const;
export type DisplaySetting = (typeof DISPLAY_SETTINGS)[number];
/** `settings.display`: the person's own theme, language or time zone; null follows the books' again. */
export const DisplayInput = z.strictObject({
  theme: SettingsSchema.shape.theme.nullable().optional(),
  locale: SettingsSchema.shape.locale.optional(),
  timeZone: SettingsSchema.shape.timeZone.nullable().optional(),
});

export const TimelineQueryInput = z.strictObject({
  /** One wallet, or every watched wallet when omitted. */
  wallet: address.optional(),
  /** A wallet group (its id) instead of one wallet: its members' transactions. */
  group: z.number().int().positive().optional(),
  chains: chainList.optional(),
  actionTypes: filterList(z.string().max(64)).optional(),
  protocols: filterList(z.string().max(64)).optional(),
  /** Token symbols moved by the transaction. */
  tokens: filterList(z.string().max(64)).optional(),
  statuses: filterList(z.number().int()).optional(),
  /** YYYY-MM-DD, inclusive, UTC. */
  from: date.optional(),
  to: date.optional(),
  /** A transaction hash or an address, or the start of one. */
  search: z.string().max(128).optional(),
  /** Categories by name (a manual choice, else a rule's); with `uncategorised`, either. */
  categories: filterList(z.string().max(64)).optional(),
  /** Transactions with no category. */
  uncategorised: z.boolean().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  /** From the previous page's `nextCursor` (or a day's of `timeline.days`); omitted for the newest page. */
  cursor: z.string().max(200).nullable().optional(),
  /**
   * Rows passed over after the cursor (or the top) before the page starts: the timeline reads a
   * row far down its list from the nearest day's cursor (`timeline.days`), so this is at most a
   * day's rows in practice. Each row passed over costs an index step.
   */
  skip: z.number().int().min(0).max(100_000_000).optional(),
});
/** A page of the timeline: its filters, page size and cursor. */
export type TimelineQuery = z.output<typeof TimelineQueryInput>;
/** Which transactions: the timeline's filters without the paging. */
export type TimelineFilter = Omit<TimelineQuery, 'limit' | 'cursor' | 'skip'>;
/** The timeline's filters, without the paging: what `timeline.count` and `timeline.days` take. */
const TimelineFilterInput = TimelineQueryInput.omit({ limit: true, cursor: true, skip: true });
/**
 * A time zone the timeline's days are counted in: an IANA name ("Europe/Berlin"), or "UTC". The
 * renderer names the one its day headings use (the setting: UTC, or the computer's zone).
 */
const timeZone = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'expected a time zone (an IANA name such as Europe/Berlin, or UTC)');

export const WalletAddInput = z.strictObject({
  address,
  chains: chainList,
  label: z.string().max(200).optional(),
  tags: z.array(z.string().max(100)).max(LIMITS.tags, `at most ${LIMITS.tags} tags`).optional(),
});
/** A wallet to watch, as `wallets.add` takes it. */
export type WalletInput = z.output<typeof WalletAddInput>;

export const WalletUpdateInput = z.strictObject({
  address,
  expectedVersion,
  label: z.string().max(200).optional(),
  tags: z.array(z.string().max(100)).max(LIMITS.tags, `at most ${LIMITS.tags} tags`).optional(),
  chains: chainList.optional(),
});
const groupIds = z.array(z.number().int().positive()).max(LIMITS.filterValues, `at most ${LIMITS.filterValues} groups`);
/** Many watched wallets changed in one step (wallets/bulk.ts): all of them, or (an error) none. */
export const WalletBulkEditInput = z
  .strictObject({
    addresses: z.array(address).min(1, 'name at least one wallet').max(LIMITS.bulkWallets, `at most ${LIMITS.bulkWallets} wallets`),
    addTags: z.array(safeText('tag', 32)).max(LIMITS.tags, `at most ${LIMITS.tags} tags`).optional(),
    removeTags: z.array(z.string().max(100)).max(LIMITS.tags, `at most ${LIMITS.tags} tags`).optional(),
    addChains: chainList.optional(),
    removeChains: chainList.optional(),
    addToGroups: groupIds.optional(),
    removeFromGroups: groupIds.optional(),
    remove: z.boolean().optional(),
    purge: z.boolean().optional(),
  })
  .refine(
    (e) => e.remove || [e.addTags, e.removeTags, e.addChains, e.removeChains, e.addToGroups, e.removeFromGroups].some((l) => l?.length),
    'say what to change: tags, chains or groups to add or remove, or remove the wallets',
  );
export type WalletBulkEdit = z.output<typeof WalletBulkEditInput>;
export interface WalletBulkResult {
  /** Wallets named (each once). */
  wallets: number;
  /** Of them, those whose tags or chains changed. */
  changed: number;
  removed: number;
  /** Groups whose members changed. */
  groupsChanged: number;
}
/** What `wallets.update` may change of a watched wallet. */
export type WalletChanges = Omit<z.output<typeof WalletUpdateInput>, 'address'>;

export const GroupSaveInput = z.strictObject({
  id: z.number().int().positive().optional(),
  name: safeText('group name', LIMITS.groupName).min(1),
  wallets: z.array(address).max(LIMITS.groupWallets, `at most ${LIMITS.groupWallets} wallets in a group`),
  expectedVersion,
});
/** A wallet group to create (no id) or replace. */
export type GroupInput = z.output<typeof GroupSaveInput>;

const step = z.enum(['day', 'week', 'month']);
/** The spacing of the dates a backfill fetches. */
export type Step = z.output<typeof step>;

export const BackfillInput = z
  .strictObject({ wallet: address, from: date, to: date, every: step, refresh: z.boolean().optional() })
  .refine(ordered, orderedMessage);
export type BackfillRequest = z.output<typeof BackfillInput>;

export const NavHistoryInput = z
  .strictObject({
    wallet: address.optional(),
    /** A wallet group (its id) instead of one wallet: the sum over its members. */
    group: z.number().int().positive().optional(),
    from: date.optional(),
    to: date.optional(),
  })
  .refine(ordered, orderedMessage);
export type NavScope = z.output<typeof NavHistoryInput>;

/** The CSV reports (docs/reports.md). */
const csvReport = z.enum([
  'positions',
  'underlying',
  'liquidity',
  'transactions',
  'history',
  'reconciliation',
  'unlocks',
  'audit',
  'pack',
  'counterparties',
  'wallets',
]);
export const CSV_REPORTS = csvReport.options;
export type CsvReport = z.output<typeof csvReport>;

export const ExportInput = z.strictObject({
  /** `bundle`: a closed period's auditor's bundle (a zip: docs/closes.md), of the close named by `close`. */
  format: z.enum(['csv', 'pdf', 'ics', 'bundle']),
  /** Bundle only: the close's id. */
  close: z.number().int().positive().optional(),
  /** CSV only: which report. */
  report: csvReport.optional(),
  /** PDF only: the portfolio report (default), or the monthly pack of the period from..to. */
  document: z.enum(['portfolio', 'pack']).optional(),
  wallet: address.optional(),
  /** A wallet group (its id) instead of one wallet: the export covers its members. */
  group: z.number().int().positive().optional(),
  /** The as-of date: PDF, iCalendar and the CSV positions reports (required by those). */
  date: date.optional(),
  /** The period, inclusive: CSV transactions and history, the PDF's transactions and NAV chart. */
  from: date.optional(),
  to: date.optional(),
  /** CSV transactions: the timeline's filters. */
  filter: TimelineQueryInput.pick({
    chains: true,
    actionTypes: true,
    protocols: true,
    tokens: true,
    statuses: true,
    search: true,
    categories: true,
    uncategorised: true,
  }).optional(),
});
export type ExportRequest = z.output<typeof ExportInput>;

/** A transaction as notes and categories name it: (wallet, chain, hash), never the cache's row id. */
const txnKey = { wallet: address, chain: chainId, txnHash: z.string().min(1).max(128) };
const categoryName = safeText('category name', 64).min(1);
const amount = z.number().min(0).max(1e30);
/** A category rule's conditions (all must hold; src/main/core/annotations/rules.ts). */
export const RuleConditionsSchema = z
  .strictObject({
    counterparties: filterList(address).optional(),
    counterpartyNames: filterList(safeText('counterparty name', 100).min(1)).optional(),
    direction: z.enum(['in', 'out', 'internal', 'self']).optional(),
    actionTypes: filterList(z.string().min(1).max(64)).optional(),
    methods: filterList(
      z
        .string()
        .max(66)
        .regex(/^0x[0-9a-fA-F]{1,64}$/, 'expected a method id in hex (0x…)'),
    ).optional(),
    token: z.string().min(1).max(128).optional(),
    minAmount: amount.optional(),
    maxAmount: amount.optional(),
    chains: chainList.optional(),
    wallets: filterList(address).optional(),
    /** Absent: succeeded transactions only (a failed one moved nothing). */
    status: z.enum(['failed', 'any']).optional(),
  })
  .refine((c) => (c.minAmount === undefined && c.maxAmount === undefined) || c.token !== undefined, {
    message: 'an amount range is of one token: name the token too',
    path: ['token'],
    params: { code: 'rule.amountNeedsToken' },
  })
  .refine((c) => c.minAmount === undefined || c.maxAmount === undefined || c.minAmount <= c.maxAmount, {
    message: 'the largest amount is below the smallest',
    path: ['maxAmount'],
    params: { code: 'rule.amountOrder' },
  });
export const RuleSaveInput = z.strictObject({
  id: z.number().int().positive().optional(),
  name: safeText('rule name', 100).optional(),
  category: categoryName,
  conditions: RuleConditionsSchema,
  /** 1-based place in the order (the first rule that matches wins); last when omitted for a new rule. */
  position: z.number().int().min(1).max(10_000).optional(),
  expectedVersion,
});
export const CategorySaveInput = z.strictObject({
  id: z.number().int().positive().optional(),
  name: categoryName,
  colour: z
    .string()
    .max(7)
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is written #rrggbb')
    .nullable()
    .optional(),
  kind: z.enum(['inflow', 'outflow', 'internal', 'any']).optional(),
  expectedVersion,
});
export const NoteSetInput = z.strictObject({
  ...txnKey,
  /** The note (line breaks kept); null or '' clears it; omitted leaves it. */
  note: z.string().max(2000, 'the note is too long (at most 2000 characters)').nullable().optional(),
  /** A category's name; null or '' clears the manual choice (the rules decide again); omitted leaves it. */
  category: z.string().max(64).nullable().optional(),
  expectedVersion,
});
/** What applying the rules did: transactions looked at, and how many a rule categorised. */
export interface RulesApplied {
  evaluated: number;
  categorised: number;
}

/** A backup's file name in the backups folder: a name, never a path. */
const backupName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.sqlite$/, 'expected the file name of a backup (NAME.sqlite, as backup list shows it)');
const passphrase = z.string().min(1).max(LIMITS.passphrase);
/** A data file's text, as read from the file, and its passphrase if it has one. */
export const UserDataFileInput = z.strictObject({
  text: z.string().max(LIMITS.userDataChars, `the file is too large (at most ${LIMITS.userDataChars} characters)`),
  passphrase: passphrase.optional(),
  /** Conflicting items take the file's version; without it, a conflict blocks the whole import. */
  replace: z.boolean().optional(),
});

/**
 * `counterparties.save`: an address-book entry (docs/address-book.md), added or replacing the
 * entry of its address. The store checks the address against the chains and the rest again
 * (counterparties/entry.ts), so the CLI and an import meet the same rules.
 */
export const CounterpartySaveInput = z.strictObject({
  address,
  name: safeText('name', 100).min(1),
  tags: z.array(safeText('tag', 32)).max(20, 'at most 20 tags').optional(),
  ours: z.boolean().optional(),
  /** The service's chain ids the name holds on; none: every chain. */
  chains: chainList.optional(),
  note: z.string().max(1000, 'the note is too long (at most 1000 characters)').optional(),
  expectedVersion,
});
export type CounterpartyInput = z.output<typeof CounterpartySaveInput>;
/** An address-book CSV (Folioscope's columns or Safe's export) and whether its names win over the book's. */
export const WalletCsvInput = z.strictObject({
  text: z.string().max(LIMITS.walletCsvChars, `the file is too large (at most ${LIMITS.walletCsvChars} characters)`),
  replace: z.boolean().optional(),
});

export const CounterpartyCsvInput = z.strictObject({
  text: z.string().max(LIMITS.counterpartyCsvChars, `the file is too large (at most ${LIMITS.counterpartyCsvChars} characters)`),
  replace: z.boolean().optional(),
});

/**
 * `spam.mark`: the user's verdict on a token (its chain and contract), a contract (every chain) or
 * an address (a counterparty), for one wallet or (no wallet) every wallet (docs/spam.md). The core
 * checks the target against its chain again (spam/verdicts.ts), as for a data file.
 */
export const SpamMarkInput = z.strictObject({
  kind: z.enum(['token', 'contract', 'address']),
  /** A token's chain; a contract's or an address's verdict holds on every chain. */
  chain: chainId.optional(),
  target: address,
  wallet: address.optional(),
  verdict: z.enum(['spam', 'not-spam']),
  note: safeText('note', 500).optional(),
  expectedVersion,
});
/** `spam.clear`: which verdict (the rules and lists decide again). */
export const SpamClearInput = SpamMarkInput.omit({ verdict: true, note: true });
/** `spam.importList`: a list file's text and the name it is kept by (else the file's own `name`). */
export const SpamListInput = z.strictObject({
  text: z.string().max(LIMITS.spamListChars, `the file is too large (at most ${LIMITS.spamListChars} characters)`),
  name: safeText('list name', 100).min(1).optional(),
  expectedVersion,
});
/** `spam.explain`: a cached transaction (its hash) or a token (its contract, at a date or its newest) of a wallet on a chain. */
export const SpamExplainInput = z
  .strictObject({
    wallet: address,
    chain: chainId,
    txnHash: z.string().min(1).max(128).optional(),
    token: address.optional(),
    date: date.optional(),
  })
  .refine((q) => (q.txnHash === undefined) !== (q.token === undefined), {
    message: 'explain a transaction (txnHash) or a token (token), one of them',
    path: ['txnHash'],
  });

const positionsView = z.enum(['all', 'underlying', 'liquidity']);
export type PositionsView = z.output<typeof positionsView>;
export const VIEW_ENDPOINT: Record<PositionsView, SnapshotEndpoint> = {
  all: 'allPositions',
  underlying: 'positionsByUnderlying',
  liquidity: 'liquidityAnalysis',
};

export interface AppInfo {
  version: string;
  mode: 'demo' | 'live';
  /** The service in use: the built-in reference service's address in demo mode. */
  baseUrl: string | null;
  key: KeyStatus;
  dataDir: string;
  databaseFile: string;
  chains: string[];
  shell: 'electron' | 'web' | 'cli';
  /** The cache was opened read-only (damaged or unwritable): viewing and exports only. */
  cacheReadOnly?: boolean;
  /**
   * A team server: a close is prepared, then approved by another person (docs/closes.md); the
   * screens offer "Prepare close" instead of closing at once. Absent or false: one person may close.
   */
  team?: boolean;
  /**
   * A desktop on a team server that cannot be reached, showing the server's last replica
   * (docs/team.md, "The desktop on a team server"): which server, and when the copy was made (ISO).
   * Everything reads; nothing writes, syncs or reaches the service.
   */
  replica?: { origin: string; madeAt: string };
}

/** What connecting learned of the key: checked with one cheap request before "Connected". */
export interface KeyCheck {
  state: 'accepted' | 'refused' | 'unverified' | 'none';
  message: string;
}

/** `settings.get`: the stored settings, with the base URL of the service in use. */
export type Settings = StoredSettings & {
  /** Stored settings that failed validation when read, and were ignored (defaults used). */
  notices?: string[];
  /** The newest edit of any setting (core/store/versions.ts), to send back as `expectedVersion`. */
  version?: number;
  /**
   * On a team server, for the signed-in person: what they chose for themselves (null: the books'
   * setting, followed) and the books' own. The display settings above are then theirs, applied.
   */
  personal?: { [K in DisplaySetting]: StoredSettings[K] | null } & { books: Pick<StoredSettings, DisplaySetting> };
};

export interface WalletStatus {
  address: string;
  /** Newest fetch of any position snapshot, and of any transaction range. */
  positionsFetchedAt: string | null;
  transactionsSyncedAt: string | null;
  latestDate: string | null;
  incomplete: boolean;
  /** Why the wallet's cached data is not complete (ranges, unresolved anomalies), one line each. */
  incompleteReasons?: string[];
  /** The last sync job for this wallet that failed, if the latest one did. */
  lastError: SerializedError | null;
}

export interface PositionsResult<V extends PositionsView = PositionsView> {
  wallet: string;
  date: string;
  view: V;
  chains: Array<{ chain: string; snapshot: StoredSnapshot<(typeof VIEW_ENDPOINT)[V]> | null }>;
}

/** One day of the timeline under its filters (`timeline.days`). */
export interface TimelineDay {
  /** YYYY-MM-DD in the zone asked for; 'unknown' for transactions the service gave no date. */
  day: string;
  /** How many transactions the filters match on it. */
  count: number;
  /** The cursor `timeline.page` reads the day from, its newest transaction first. */
  cursor: string;
}
export interface TimelineDays {
  /** The days that have a matching transaction, newest first. */
  days: TimelineDay[];
  /** Every matching transaction: the days' counts summed (what `timeline.count` says). */
  total: number;
}
/** Where a date is in the timeline (`timeline.position`). */
export interface TimelinePosition {
  /** How many matching transactions are newer than the end of the date: the place of the first on or before it. */
  index: number;
  /** That transaction's day (YYYY-MM-DD in the zone asked for, or 'unknown'); null when none is on or before the date. */
  day: string | null;
  /** The cursor `timeline.page` reads from it; null when none is on or before the date. */
  cursor: string | null;
}

export interface TimelineFacets {
  actionTypes: string[];
  protocols: string[];
  tokens: string[];
  chains: string[];
}

/**
 * What a rule's or a filter's list is picked from (`pickers.options`): watched wallets (by label
 * or address), token symbols seen in the cache, counterparties' addresses (the address book, the
 * watched wallets, addresses seen in the cache) and their names, action types seen in the cache.
 */
export const PICK_KINDS = ['wallets', 'tokens', 'counterparties', 'counterpartyNames', 'actionTypes'] as const;
export type PickKind = (typeof PICK_KINDS)[number];
/** The most options one answer holds: the core searches, the screen never gets every value of a large cache. */
export const PICK_LIMIT_MAX = 100;

/** One option of a picker: the value a rule or filter stores, and how the screens spell it. */
export interface PickOption {
  value: string;
  /** As the screens show it: a wallet's label or a counterparty's name, an action type as `displayName` spells it ("Swap" for swap). */
  label: string;
  /** An address the label names (wallets, counterparties): shown beside the label. */
  address?: string;
  /** Where a counterparty came from: the address book, a watched wallet, or seen in the cache only. */
  source?: 'book' | 'wallet' | 'seen';
}
export interface PickOptions {
  options: PickOption[];
  /** More options match than were sent: typing more narrows them. */
  more: boolean;
}

/**
 * An operation of the contract: its input's schema, its result's type, the permission it needs
 * (src/shared/roles.ts: on a team server, a person whose role lacks it is refused), and whether
 * it writes to the cache (`WRITES`): such an operation is refused, with why, while the cache is
 * open read-only. The core's dispatch is the one gate that reads both here; there is no second
 * list to keep in step.
 */
const op =
  <I extends z.ZodType>(input: I, needs: Permission, declared: { writes?: true; own?: true; raised?: (input: z.output<I>) => Permission | null } = {}) =>
  <O>() => ({
    input,
    output: undefined as unknown as O,
    needs,
    writes: declared.writes === true,
    /**
     * It writes only the asking person's own rows, never the books (a team server's person's
     * display): the one kind of write a role that only reads may make.
     */
    own: declared.own === true,
    /** A higher permission some inputs need (a read that spends the service's quota on purpose), checked once the input is read. */
    raised: declared.raised as ((input: unknown) => Permission | null) | undefined,
  });
/** Declares that an operation writes to the cache. */
const WRITES = { writes: true } as const;
/** Declares that an operation writes to the cache the asking person's own rows alone (not the books). */
const WRITES_OWN = { writes: true, own: true } as const;

/** A scope (a wallet, a group, or all) and a period: a month, or two cached dates (the monthly pack's, and a close's). */
const PackInput = z
  .strictObject({
    wallet: address.optional(),
    group: z.number().int().positive().optional(),
    /** A calendar month: from its eve to its last day. */
    month: z
      .string()
      .max(7)
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month, YYYY-MM')
      .optional(),
    from: date.optional(),
    to: date.optional(),
  })
  .refine(ordered, orderedMessage);

/**
 * Which rows of the portfolio view a screen shows (src/shared/portfolio/summary.ts): a page of at
 * most ROW_PAGE_MAX rows from `offset`, ordered and filtered in the core.
 */
const rowPage = {
  offset: z.number().int().min(0).max(10_000_000).optional(),
  limit: z.number().int().min(1).max(ROW_PAGE_MAX, `at most ${ROW_PAGE_MAX} rows a page`).optional(),
  sort: z.enum(ROW_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  groupBy: z.enum(['protocol']).optional(),
  filter: z
    .strictObject({
      chain: chainId.optional(),
      wallet: address.optional(),
      protocol: z.string().min(1).max(128).optional(),
      text: z.string().min(1).max(100, 'the text searched is too long (at most 100 characters)').optional(),
    })
    .optional(),
};
const portfolioScope = { date, wallet: address.optional(), group: z.number().int().positive().optional() };

export const CONTRACT = {
  'app.info': op(empty, 'read')<AppInfo>(),
  'app.connect': op(
    z.strictObject({ baseUrl: z.string().url().max(2048), key: z.string().min(1).max(4096).optional(), sessionOnly: z.boolean().optional() }),
    'admin',
  )<AppInfo & { keyCheck: KeyCheck }>(),
  'app.useDemo': op(empty, 'admin')<AppInfo>(),
  'settings.get': op(empty, 'read')<Settings>(),
  'settings.update': op(SettingsInput, 'admin', WRITES)<Settings>(),
  /** A team server's person's own theme, language and time zone (every role: it changes nothing of the books). */
  'settings.display': op(DisplayInput, 'read', WRITES_OWN)<Settings>(),
  'key.status': op(empty, 'read')<KeyStatus>(),
  /** `check`: what the service said of the key (a key that could not be verified is kept, and the caller says so). */
  'key.set': op(z.strictObject({ key: z.string().min(1).max(4096), sessionOnly: z.boolean().optional() }), 'admin')<KeyStatus & { check: KeyCheck }>(),
  'key.clear': op(empty, 'admin')<KeyStatus>(),
  'wallets.list': op(empty, 'read')<Wallet[]>(),
  'wallets.add': op(WalletAddInput, 'books', WRITES)<Wallet>(),
  'wallets.update': op(WalletUpdateInput, 'books', WRITES)<Wallet>(),
  'wallets.remove': op(z.strictObject({ address, purge: z.boolean().optional(), expectedVersion }), 'books', WRITES)<boolean>(),
  /** Tags, chains or groups of many wallets changed, or the wallets removed, in one step: all, or (an error) nothing. */
  'wallets.bulkEdit': op(WalletBulkEditInput, 'books', WRITES)<WalletBulkResult>(),
  'wallets.status': op(empty, 'read')<WalletStatus[]>(),
  /** What importing a wallets CSV (docs/wallet-import.md) would do, row by row; nothing is written. */
  'wallets.preview': op(WalletCsvInput, 'books')<WalletImportPreview>(),
  /** Imports a wallets CSV in one transaction: every row, or (an error, a conflict without replace) nothing. */
  'wallets.import': op(WalletCsvInput, 'books', WRITES)<WalletImportPreview>(),
  /** The watched wallets as CSV, in the columns import reads. */
  'wallets.export': op(empty, 'read')<WalletExport>(),
  'positions.dates': op(z.strictObject({ wallet: address.optional(), group: z.number().int().positive().optional() }), 'read')<string[]>(),
  /** How many of the scope's wallet chains have all three position views cached for a date: "cached" is said only of all of them. */
  'positions.coverage': op(z.strictObject({ wallet: address.optional(), group: z.number().int().positive().optional(), date }), 'read')<{
    cached: number;
    of: number;
  }>(),
  'positions.get': op(z.strictObject({ wallet: address, date, view: positionsView }), 'read')<PositionsResult>(),
  'positions.diff': op(z.strictObject({ wallet: address, from: date, to: date }), 'read')<DateDiff>(),
  /** A wallet, a group or all wallets at a date: rows, totals, allocation and each member's coverage (src/shared/portfolio/view.ts). */
  'portfolio.view': op(z.strictObject({ date, wallet: address.optional(), group: z.number().int().positive().optional() }), 'read')<PortfolioView>(),
  /**
   * What changed per position and per token from an earlier cached date (`since`) to `date`
   * (src/shared/portfolio/change.ts): the rows of `keys` and `tokenKeys` (a screen's page), or
   * every row when neither is given.
   */
  'portfolio.change': op(
    z.strictObject({
      date,
      since: date,
      wallet: address.optional(),
      group: z.number().int().positive().optional(),
      // A row's key holds a position's name where it has no contract: room for a long one.
      keys: z.array(z.string().max(20_000)).max(ROW_PAGE_MAX).optional(),
      tokenKeys: z.array(z.string().max(20_000)).max(ROW_PAGE_MAX).optional(),
      /** false: no gone rows in the answer (a page before the table's last: they are shown after its last row); the total still counts them. */
      gone: z.boolean().optional(),
    }),
    'read',
  )<PortfolioChange>(),
  /**
   * What a screen of that view shows at once: its totals, allocation, exposure, risk, unlocks,
   * coverage (counts, and a page of the members not fully cached) and spam counted, with the first
   * page of positions; every figure the view's own (src/shared/portfolio/summary.ts).
   */
  'portfolio.summary': op(
    z.strictObject({
      ...portfolioScope,
      rows: z.strictObject(rowPage).optional(),
      members: z
        .strictObject({ offset: z.number().int().min(0).max(10_000_000).optional(), limit: z.number().int().min(1).max(ROW_PAGE_MAX).optional() })
        .optional(),
      /** A page of the scope's wallets, each with its totals. */
      wallets: z
        .strictObject({ offset: z.number().int().min(0).max(10_000_000).optional(), limit: z.number().int().min(1).max(ROW_PAGE_MAX).optional() })
        .optional(),
      /** How many spam rows to give whole (largest claim first). */
      spam: z.strictObject({ limit: z.number().int().min(1).max(ROW_PAGE_MAX).optional() }).optional(),
    }),
    'read',
  )<PortfolioSummary>(),
  /** A page of the view's positions, by-token rows, tokens, liquidity or spam rows, sorted and filtered in the core, with how many rows pass the filter. */
  'portfolio.rows': op(z.strictObject({ ...portfolioScope, table: z.enum(ROW_TABLES).optional(), ...rowPage }), 'read')<RowsPage>(),
  'nav.history': op(NavHistoryInput, 'read')<NavSeries>(),
  /** Exposure per token at a date: every watched wallet, or a group's members. */
  'exposure.get': op(z.strictObject({ date, group: z.number().int().positive().optional() }), 'read')<Exposure>(),
  'timeline.page': op(TimelineQueryInput.refine(ordered, orderedMessage), 'read')<TimelinePage>(),
  'timeline.facets': op(z.strictObject({ wallet: address.optional(), group: z.number().int().positive().optional() }), 'read')<TimelineFacets>(),
  /**
   * Options for a rule's or a filter's list, searched in the cache (by a name or label in any case
   * and anywhere in it, an address by its start, an action type as stored or as shown): at most
   * `limit`, with whether more match. `values`: the options of exactly these values instead (a
   * stored rule's picks shown by name).
   */
  'pickers.options': op(
    z.strictObject({
      kind: z.enum(PICK_KINDS),
      search: z.string().max(128).optional(),
      values: filterList(z.string().max(128)).optional(),
      limit: z.number().int().min(1).max(PICK_LIMIT_MAX).optional(),
      /** Tokens of one wallet's or a group's transactions only (a timeline's scope); every watched wallet's when omitted. */
      wallet: address.optional(),
      group: z.number().int().positive().optional(),
    }),
    'read',
  )<PickOptions>(),
  /** How many transactions the timeline's filters match in all (what its CSV export holds). */
  'timeline.count': op(TimelineFilterInput.refine(ordered, orderedMessage), 'read')<number>(),
  /**
   * How many transactions the filters match on each day, newest day first, in a time zone (the
   * day headings'): what lets the renderer place any row of a list of millions and read it from
   * its day's cursor (docs/design-notes.md, "Renderer").
   */
  'timeline.days': op(TimelineFilterInput.extend({ zone: timeZone }).refine(ordered, orderedMessage), 'read')<TimelineDays>(),
  /**
   * Where a date is in the timeline under the filters: how many transactions come before the first
   * on or before the end of `date` (a day of `zone`), that row's day and a cursor to read from it.
   */
  'timeline.position': op(TimelineFilterInput.extend({ zone: timeZone, date }).refine(ordered, orderedMessage), 'read')<TimelinePosition>(),
  /** The change log of cached transactions, newest first: what the service restated after they were first seen (late, changed, removed). */
  'changes.list': op(
    z.strictObject({ wallet: address.optional(), group: z.number().int().positive().optional(), limit: z.number().int().min(1).max(5000).optional() }),
    'read',
  )<TransactionChange[]>(),
  'audit.list': op(
    z
      .strictObject({
        entity: z.string().max(32).optional(),
        key: z.string().max(200).optional(),
        /** Edits by this person, exactly as the trail names them (issue 37 item 1). */
        person: z.string().min(1).max(200).optional(),
        /** Edits at or after / before these instants. */
        since: instant.optional(),
        until: instant.optional(),
        /** The next page: edits older than this one. */
        beforeId: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .optional()
      .transform((x) => x ?? {}),
    'read',
  )<{
    entries: AuditEntry[];
    total: number;
    /** Everyone the trail names, most edits first (the filter's choices). */ people: Array<{ person: string; edits: number }>;
  }>(),
  'pack.get': op(PackInput, 'read')<MonthlyPack>(),
  /** Closed periods (docs/closes.md): every close (or one period's), newest first. */
  'closes.list': op(z.strictObject({ from: date.optional(), to: date.optional() }).optional(), 'read')<PeriodClose[]>(),
  /** One close with its figures as stored at close (never recomputed) and what changed since. */
  'closes.get': op(z.strictObject({ id: z.number().int().positive() }), 'read')<PeriodCloseDetail>(),
  /**
   * Closes a scope's period (as pack.get takes it) at once: prepared and approved by the same
   * person, and the close says so. Refused when its pack is partial, it is prepared or closed
   * already, or on a team server (where a close is prepared, then approved by another person).
   */
  'closes.close': op(PackInput, 'prepare', WRITES)<PeriodCloseDetail>(),
  /** Prepares a scope's period's close: its pack and hash stored, waiting for another person's approval (refused as closes.close is). */
  'closes.prepare': op(PackInput, 'prepare', WRITES)<PeriodCloseDetail>(),
  /**
   * Approves a prepared close: closed from now, on the figures and hash prepared. Refused when
   * the data behind them changed since it was prepared (naming the parts), and on a team server
   * when the approver prepared it.
   */
  'closes.approve': op(z.strictObject({ id: z.number().int().positive() }), 'approve', WRITES)<PeriodCloseDetail>(),
  /** Rejects a prepared close with a reason (required, kept with it and in the audit trail): it ends, never in force. */
  'closes.reject': op(
    z.strictObject({
      id: z.number().int().positive(),
      reason: safeText('reason', REOPEN_REASON_MAX).refine((v) => v.trim().length > 0, 'give a reason for rejecting the close'),
    }),
    'approve',
    WRITES,
  )<PeriodClose>(),
  /** Reopens a close in force; the reason is required and kept in the audit trail. */
  'closes.reopen': op(
    z.strictObject({
      id: z.number().int().positive(),
      reason: safeText('reason', REOPEN_REASON_MAX).refine((v) => v.trim().length > 0, 'give a reason for reopening the period'),
    }),
    'approve',
    WRITES,
  )<PeriodClose>(),
  /** Checks the closes in force against their data now; flags (and alerts on) those that changed. */
  'closes.check': op(empty, 'books', WRITES)<CloseCheck>(),
  /** `refresh` asks the service again whatever is cached: the service's quota spent on purpose, a preparer's to spend. */
  'logs.get': op(z.strictObject({ chain: chainId, txnHash: z.string().max(80), refresh: z.boolean().optional() }), 'read', {
    raised: (i) => (i.refresh ? 'books' : null),
  })<LogSet>(),
  'sync.positions': op(z.strictObject({ wallet: address, date: date.optional() }), 'books', WRITES)<JobInfo>(),
  'sync.backfill': op(BackfillInput, 'books', WRITES)<JobInfo>(),
  'sync.transactions': op(z.strictObject({ wallet: address }), 'books', WRITES)<JobInfo>(),
  'sync.all': op(z.strictObject({ wallet: address.optional(), date: date.optional() }).optional(), 'books', WRITES)<JobInfo[]>(),
  'sync.cancel': op(z.strictObject({ jobId: z.string().max(64) }), 'books')<boolean>(),
  'sync.jobs': op(empty, 'read')<JobInfo[]>(),
  /**
   * Waits for what finished sync jobs and edits set off (the category rules, the alert rules, the
   * checks of closed periods: src/main/core/reactions.ts) and returns the closes those checks
   * found changed since the last time this was asked: a CLI sync says them with its jobs.
   */
  /**
   * Waits for what the ended syncs set off (rules, alert rules, closed periods' checks) and says
   * the closed periods they flagged; with `warm`, then asks the screens' last requests again, so
   * that a shell that ends next (the CLI) leaves their answers kept (`warmed`: how many).
   */
  'sync.settle': op(z.strictObject({ warm: z.boolean().optional() }).optional(), 'read')<{ flagged: PeriodClose[]; warmed: number }>(),
  'shell.openExternal': op(z.strictObject({ url: z.string().max(2048) }), 'read')<boolean>(),
  'cache.clear': op(empty, 'admin', WRITES)<{ snapshots: number; transactions: number }>(),
  /** Encryption at rest of the data folder: on or off, the key's source, each cache and the backups (never the key). */
  'cache.encryption': op(empty, 'read')<EncryptionStatus>(),
  /**
   * Encrypts every cache and backup of the data folder, converted in place (README, "Encryption
   * at rest"): with a random key kept in the system keychain, or with one derived from
   * `passphrase`. Refused while jobs run unless `cancelJobs`.
   */
  'cache.encrypt': op(
    z.strictObject({ passphrase: passphrase.min(8, 'a passphrase needs at least 8 characters').optional(), cancelJobs: z.boolean().optional() }).optional(),
    'admin',
    WRITES,
  )<EncryptionStatus>(),
  /**
   * Decrypts every cache and backup of the data folder, converted in place; the key is then
   * removed. A folder encrypted with a passphrase needs it typed again (`passphrase`), checked
   * before anything is closed: missing or wrong, it is refused (field `passphrase`) and nothing changes.
   */
  'cache.decrypt': op(
    z.strictObject({ passphrase: passphrase.optional(), cancelJobs: z.boolean().optional() }).optional(),
    'admin',
    WRITES,
  )<EncryptionStatus>(),
  /**
   * Moves an encrypted data folder from its key to a new one (README, "Encryption at rest"), every
   * cache and backup converted in place and never plain in between: a new random key in the
   * system keychain, or one derived from `passphrase`. A folder whose key comes from a passphrase
   * needs it typed again (`currentPassphrase`), checked before anything is closed: missing or
   * wrong, it is refused (field `currentPassphrase`) and nothing changes. Refused while jobs run
   * unless `cancelJobs`.
   */
  'cache.rekey': op(
    z
      .strictObject({
        passphrase: passphrase.min(8, 'a passphrase needs at least 8 characters').optional(),
        currentPassphrase: passphrase.optional(),
        cancelJobs: z.boolean().optional(),
      })
      .optional(),
    'admin',
    WRITES,
  )<EncryptionStatus>(),
  /**
   * Whether the data folder waits for its passphrase (README, "Encryption at rest"): a folder
   * encrypted with one, started without FOLIOSCOPE_CACHE_PASSPHRASE in the app or the web shell,
   * answers only this and `cache.unlock` until it is given. Says where the folder is, never a key.
   */
  'cache.locked': op(empty, 'read')<CacheLockState>(),
  /**
   * Opens the caches of a folder waiting for its passphrase with the key derived from it (scrypt,
   * checked against encryption.json). A wrong one is refused (field `passphrase`) and changes
   * nothing; the passphrase is kept in this process's memory only, never written, logged or sent
   * back. On a folder already open it does nothing.
   */
  'cache.unlock': op(z.strictObject({ passphrase }), 'admin')<CacheLockState>(),
  'export.start': op(ExportInput.refine(ordered, orderedMessage), 'read')<JobInfo | null>(),
  /** Roll-forward between two cached dates (docs/analytics.md): one wallet, or every watched wallet. */
  'reconcile.get': op(
    z.strictObject({ wallet: address.optional(), group: z.number().int().positive().optional(), from: date, to: date }),
    'read',
  )<Reconciliation>(),
  /** Lending positions with ratio and threshold at a date (headroom: src/shared/headroom.ts). */
  'risk.lending': op(z.strictObject({ date, wallet: address.optional(), group: z.number().int().positive().optional() }), 'read')<RiskOverview>(),
  /** One lending position's collateral/debt ratio over the cached dates. */
  'risk.health': op(z.strictObject({ wallet: address, chain: chainId, cid: z.string().min(1).max(128) }), 'read')<HealthHistory>(),
  /** Locked tokens unlocking on or after the date. */
  'risk.unlocks': op(z.strictObject({ date, wallet: address.optional(), group: z.number().int().positive().optional() }), 'read')<UnlockLadder>(),
  'groups.list': op(empty, 'read')<WalletGroup[]>(),
  /** Creates (no id) or replaces a group's name and members. */
  'groups.save': op(GroupSaveInput, 'books', WRITES)<WalletGroup>(),
  'groups.remove': op(z.strictObject({ id: z.number().int().positive(), expectedVersion }), 'books', WRITES)<boolean>(),
  'schedules.list': op(empty, 'read')<Schedule[]>(),
  'schedules.save': op(ScheduleInput, 'books', WRITES)<Schedule>(),
  'schedules.remove': op(z.strictObject({ id: z.number().int().positive(), expectedVersion }), 'books', WRITES)<boolean>(),
  /** Runs every schedule whose slot has come (each once, however many slots were missed), and waits for its jobs. */
  'schedules.runDue': op(empty, 'books', WRITES)<DueRuns>(),
  /** The cache's backups (newest first), checked when made; listing reads their manifests only. */
  'backups.list': op(empty, 'admin')<BackupList>(),
  /** A backup made now (VACUUM INTO, checked, then named), older ones pruned to the setting's count. */
  'backups.create': op(empty, 'admin', WRITES)<BackupInfo>(),
  /** Checks a backup as a restore would: SHA-256 against its manifest, integrity_check, schema version. */
  'backups.verify': op(z.strictObject({ name: backupName }), 'admin')<BackupVerification>(),
  /**
   * Replaces the cache with a verified backup, the current one kept aside (`<cache>.before-restore-<time>`).
   * Refused while jobs run unless `cancelJobs`.
   */
  'backups.restore': op(z.strictObject({ name: backupName, cancelJobs: z.boolean().optional() }), 'admin', WRITES)<RestoreResult>(),
  /** Writes the user's own data (wallets, groups, schedules, alert rules, settings) as a data file, optionally encrypted: an export job. */
  'userData.export': op(
    z.strictObject({ passphrase: passphrase.min(8, 'a passphrase needs at least 8 characters').optional() }).optional(),
    'read',
  )<JobInfo | null>(),
  /** What importing a data file would change, item by item; nothing is written. */
  'userData.preview': op(UserDataFileInput, 'admin')<UserDataPreview>(),
  /** Imports a data file in one transaction: all of it, or (a conflict without replace, any error) nothing. */
  'userData.import': op(UserDataFileInput, 'admin', WRITES)<UserDataPreview>(),
  /** The address book, by name (docs/address-book.md). */
  'counterparties.list': op(empty, 'read')<Counterparty[]>(),
  /** Adds an entry, or replaces the entry of its address; recorded in the audit trail. */
  'counterparties.save': op(CounterpartySaveInput, 'books', WRITES)<Counterparty>(),
  'counterparties.remove': op(z.strictObject({ address, expectedVersion }), 'books', WRITES)<boolean>(),
  /** What importing an address-book CSV would do, row by row; nothing is written. */
  'counterparties.preview': op(CounterpartyCsvInput, 'books')<CounterpartyImportPreview>(),
  /** Imports an address-book CSV in one transaction: every row, or (an error, a conflict without replace) nothing. */
  'counterparties.import': op(CounterpartyCsvInput, 'books', WRITES)<CounterpartyImportPreview>(),
  /** The address book as the CSV import reads. */
  'counterparties.export': op(empty, 'read')<CounterpartyExport>(),
  /** The user's spam verdicts (every wallet's, and one wallet's when asked; docs/spam.md). */
  'spam.verdicts': op(z.strictObject({ wallet: address.optional() }).optional(), 'read')<SpamMark[]>(),
  /** Marks a token, a contract or an address spam or not spam, for a wallet or every wallet; it wins over the rules and the lists. Audited. */
  'spam.mark': op(SpamMarkInput, 'books', WRITES)<SpamMark>(),
  /** Clears a verdict: the lists and the rules decide again. Audited; false when there was none. */
  'spam.clear': op(SpamClearInput, 'books', WRITES)<boolean>(),
  /** The lists loaded: the shipped one and those imported, with what each holds. */
  'spam.lists': op(empty, 'read')<SpamListInfo[]>(),
  /** Imports a spam list (checked whole: a fault names its line and member, and nothing changes), over any list of its name. Audited. */
  'spam.importList': op(SpamListInput, 'books', WRITES)<SpamListInfo>(),
  /** Removes an imported list. Audited; false when there is none of that name. */
  'spam.removeList': op(z.strictObject({ name: z.string().min(1).max(100), expectedVersion }), 'books', WRITES)<boolean>(),
  /** One token or transaction judged: the verdict, who decided, its reasons, a poisoning hit. */
  'spam.explain': op(SpamExplainInput, 'read')<SpamExplanation>(),
  'alerts.rules': op(empty, 'read')<AlertRule[]>(),
  'alerts.saveRule': op(AlertRuleInput, 'books', WRITES)<AlertRule>(),
  /** Removes a rule; its alerts stay in the history, resolved. */
  'alerts.removeRule': op(z.strictObject({ id: z.number().int().positive(), expectedVersion }), 'books', WRITES)<boolean>(),
  /** The inbox: alerts not acknowledged (with `all`, the acknowledged too), newest first. */
  'alerts.inbox': op(z.strictObject({ all: z.boolean().optional(), limit: z.number().int().min(1).max(1000).optional() }).optional(), 'read')<AlertInbox>(),
  'alerts.acknowledge': op(z.strictObject({ id: z.number().int().positive() }), 'books', WRITES)<boolean>(),
  'alerts.snooze': op(z.strictObject({ id: z.number().int().positive(), until: instant }), 'books', WRITES)<boolean>(),
  /** Checks every rule now over the cache; returns the alerts that fired. */
  'alerts.check': op(empty, 'books', WRITES)<Alert[]>(),
  /** The transactions of a reconciliation's period that moved one token. */
  'reconcile.trace': op(z.strictObject({ wallet: address, chain: chainId, tokenCid: z.string().min(1).max(128), from: date, to: date }), 'read')<
    ReconcileTraceRow[]
  >(),
  /** A transaction's note and category (null: none), found by (wallet, chain, hash); `orphaned` when it left the cache. */
  'notes.get': op(z.strictObject(txnKey), 'read')<TxnAnnotation | null>(),
  /** Sets or clears a transaction's note and manual category (a manual choice always wins over a rule). */
  'notes.set': op(NoteSetInput, 'books', WRITES)<TxnAnnotation | null>(),
  /** Notes and manual categories kept for transactions no longer in the cache (the service removed them). */
  'notes.orphans': op(empty, 'read')<TxnAnnotation[]>(),
  'categories.list': op(empty, 'read')<Category[]>(),
  /** Creates (no id) or changes a category. */
  'categories.save': op(CategorySaveInput, 'books', WRITES)<Category>(),
  /** Removes a category (refused while a rule sets it); its transactions become uncategorised. */
  'categories.remove': op(z.strictObject({ id: z.number().int().positive(), expectedVersion }), 'books', WRITES)<{ removed: boolean; uncategorised: number }>(),
  /** The category rules, in the order they are tried. */
  'rules.list': op(empty, 'read')<CategoryRule[]>(),
  /** Saves a rule, then applies every rule to every cached transaction again (manual categories untouched). */
  'rules.save': op(RuleSaveInput, 'books', WRITES)<{ rule: CategoryRule; applied: RulesApplied }>(),
  'rules.remove': op(z.strictObject({ id: z.number().int().positive(), expectedVersion }), 'books', WRITES)<{ removed: boolean; applied: RulesApplied }>(),
  /** Puts the rules in this order (every rule's id once), then applies them again. */
  'rules.reorder': op(z.strictObject({ ids: z.array(z.number().int().positive()).max(1000, 'at most 1000 rules') }), 'books', WRITES)<{
    rules: CategoryRule[];
    applied: RulesApplied;
  }>(),
  /** How many cached transactions (of a wallet, a group, or all) a rule's conditions match, before it is saved. */
  'rules.preview': op(
    z.strictObject({ conditions: RuleConditionsSchema, wallet: address.optional(), group: z.number().int().positive().optional() }),
    'books',
  )<RulePreview>(),
  /** Applies every rule to every cached transaction again ("apply to existing"). */
  'rules.apply': op(empty, 'books', WRITES)<RulesApplied>(),
  /** What was learned about how the service reads the spec's open points, and the anomalies. */
  'service.conventions': op(empty, 'read')<ConventionsReport>(),
  /** Learns the conventions again now (with the first watched wallet that has history), then reports. */
  'service.check': op(empty, 'admin')<ConventionsReport>(),
  /**
   * The service check the user sees (Settings, `folioscope doctor`): datetimes, numbers,
   * snapshot days, and the learned conventions, with when; `run` learns and checks again first.
   */
  'service.doctor': op(z.strictObject({ run: z.boolean().optional() }).optional(), 'read', { raised: (i) => (i?.run ? 'books' : null) })<ServiceCheck>(),
  /**
   * The desktop on a team server (docs/team.md, "The desktop on a team server"): answered by the
   * shell's team client (src/main/team-client) in the desktop app and `folioscope serve`; a core
   * alone (a team server, the CLI) has none, and says so. The password passes once to the client
   * and is kept nowhere; the token goes to the OS keychain and never back to a screen.
   */
  'team.status': op(empty, 'read')<TeamStatus>(),
  'team.signIn': op(
    z.strictObject({ origin: z.string().min(1).max(300), name: z.string().min(1).max(64), password: z.string().min(1).max(1024) }),
    'admin',
  )<TeamStatus>(),
  'team.useToken': op(z.strictObject({ origin: z.string().min(1).max(300), token: z.string().min(1).max(200) }), 'admin')<TeamStatus>(),
  'team.signOut': op(z.strictObject({ deleteReplica: z.boolean().optional() }).optional(), 'admin')<TeamStatus & { replicaKept: boolean; revoked: boolean }>(),
  'team.refreshReplica': op(empty, 'read')<TeamStatus>(),
} satisfies Record<
  OperationName,
  { input: z.ZodType; output: unknown; needs: Permission; writes: boolean; raised: ((input: unknown) => Permission | null) | undefined }
>;

// Both directions: every name has an entry, and every entry has a name.
type Check<T extends true> = T;
export type ContractCoversNames = Check<OperationName extends keyof typeof CONTRACT ? (keyof typeof CONTRACT extends OperationName ? true : false) : false>;

export type Contract = typeof CONTRACT;
export type InputOf<K extends OperationName> = z.input<Contract[K]['input']>;
export type ParsedInputOf<K extends OperationName> = z.output<Contract[K]['input']>;
export type OutputOf<K extends OperationName> = Contract[K]['output'];

/** The desktop's sign-in to a team server, as Settings → Team shows it (src/main/team-client/client.ts). */
export interface TeamStatus {
  /** The shell can sign in to a team server (the desktop app, `folioscope serve`); false for a core alone. */
  available: boolean;
  /** `signedOut`: the desktop's own books; `live`: the server's; `replica`: its last copy, read-only; `offline`: signed in, the server unreachable and no copy kept. */
  state: 'signedOut' | 'live' | 'replica' | 'offline';
  origin: string | null;
  person: string | null;
  role: Role | null;
  /** When the copy kept of this server was made (ISO), or null. */
  replicaAt: string | null;
  /** Why the server is not in use (the network's sentence, a refused token), or null. */
  problem: string | null;
}

export interface DataChanged {
  /** `counterparties`: the address book changed (the names shown for addresses); `annotations`: notes, categories or rules; `closes`: a period was closed, reopened, or flagged as changed since its close; `spam`: a spam verdict or list. */
  scope: 'wallets' | 'positions' | 'transactions' | 'logs' | 'settings' | 'mode' | 'counterparties' | 'closes' | 'annotations' | 'spam';
  wallet?: string;
}

export interface EventPayloads {
  'sync.progress': JobInfo;
  'data.changed': DataChanged;
  /** A rule fired (the inbox, the desktop's notification, `folioscope watch`). */
  'alert.fired': Alert;
  /** A conversion of the data folder's files under way (Settings → Encryption, `folioscope cache`). */
  'cache.converting': ConversionProgress;
}
export type ContractCoversEvents = Check<EventName extends keyof EventPayloads ? true : false>;

/** The result of a call as it crosses a process boundary. */
export type Envelope<T> = { ok: true; result: T } | { ok: false; error: SerializedError };

/** What the renderer sees as `window.folio`: one function per operation, and events. */
export type FolioApi = {
  [K in OperationName]: (input: InputOf<K>) => Promise<OutputOf<K>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

export type { SnapshotDataByEndpoint };
