/**
 * The user's own data as a portable file (docs/data-format.md): wallets, groups, schedules, alert
 * rules, categories, category rules, notes, settings, closed periods, spam verdicts and spam lists, never the service's data (snapshots, transactions, logs), never the alerts
 * that fired (derived from the cache), and never the access key.
 * Version 1, plain JSON, or that JSON encrypted with a passphrase (scrypt + AES-256-GCM, the
 * parameters in the file's header).
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { scryptCosts } from '../../../shared/scrypt-params.ts';
import { AlertConditionSchema, CadenceSchema, LIMITS, RuleConditionsSchema, SettingsSchema } from '../../../shared/contract.ts';
import { ValidationError } from '../store/validation.ts';

export const USER_DATA_FORMAT = 'folioscope-user-data';
export const USER_DATA_VERSION = 1;

const address = z.string().min(1).max(128);
const chainId = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'expected a chain id');

const WalletV1 = z.strictObject({
  address,
  label: z.string().max(80),
  tags: z.array(z.string().max(32)).max(LIMITS.tags),
  chains: z.array(chainId).min(1).max(LIMITS.chains),
  /** When it was first watched (kept, so a wallet imported elsewhere keeps its place in the list). */
  createdAt: z.iso.datetime().optional(),
});
const GroupV1 = z.strictObject({
  name: z.string().min(1).max(LIMITS.groupName),
  /** Members by address: each a wallet of the file or one already watched where it is imported. */
  wallets: z.array(address).max(LIMITS.groupWallets),
});
/** A schedule's or an alert rule's scope. Groups by name: ids are the cache's own and mean nothing elsewhere. */
const ScopeV1 = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('wallet'), address }),
  z.strictObject({ kind: z.literal('group'), name: z.string().min(1).max(LIMITS.groupName) }),
]);
const ScheduleV1 = z.strictObject({
  scope: ScopeV1,
  what: z.enum(['positions', 'transactions', 'both']),
  cadence: CadenceSchema,
  /** The zone its hour is in (absent in files made before schedules kept one: the display setting's). */
  zone: z.enum(['utc', 'local']).optional(),
});
/**
 * An alert rule: its scope and condition (checked as the app's form checks them). Not its id,
 * when it was made, its last check or the alerts it fired: those are this cache's.
 */
const AlertRuleV1 = z.strictObject({
  scope: ScopeV1,
  condition: AlertConditionSchema,
});
/** An address-book entry (docs/address-book.md), checked again as the app's form checks one. */
const CounterpartyV1 = z.strictObject({
  address,
  name: z.string().min(1).max(100),
  tags: z.array(z.string().max(32)).max(20),
  ours: z.boolean(),
  /** The service's chain ids; empty: every chain. */
  chains: z.array(chainId).max(LIMITS.chains),
  note: z.string().max(1000),
});
/** A category of notes and rules (issue 28): by name; its colour and kind. */
const CategoryV1 = z.strictObject({
  name: z.string().min(1).max(64),
  colour: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .max(7)
    .nullable(),
  kind: z.enum(['inflow', 'outflow', 'internal', 'any']),
});
/** A category rule, in the order the file lists them (the first that matches wins); its category by name. */
const RuleV1 = z.strictObject({
  name: z.string().max(100),
  category: z.string().min(1).max(64),
  conditions: RuleConditionsSchema,
});
/** A transaction's note and manual category, keyed by (wallet, chain, txn hash) as the cache keys them. */
const NoteV1 = z.strictObject({
  wallet: address,
  chain: chainId,
  txnHash: z.string().min(1).max(128),
  note: z.string().max(2000).nullable(),
  category: z.string().min(1).max(64).nullable(),
});
const day = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');
const sha256 = z
  .string()
  .max(64)
  .regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');
/**
 * A closed period (docs/closes.md): its scope (a wallet by address, a group by name), the period,
 * when it was closed, its figures (the monthly pack as built at close, kept as they are), the hash
 * of the data behind them with each part's, the snapshots it stood on, and its reopen. Not
 * whether a check here flagged it: that is this cache's finding, made again where it is imported.
 */
const ClosedPeriodV1 = z.strictObject({
  scope: ScopeV1,
  /** The scope's name at close (a wallet's label or address, a group's name, "All wallets"). */
  name: z.string().max(200),
  members: z.array(address).max(LIMITS.groupWallets * 20),
  from: day,
  to: day,
  closedAt: z.iso.datetime(),
  // Read as a record (its members in the order written, so the stored figures are the closed ones
  // byte for byte), with the members a list of closes shows checked.
  figures: z
    .record(z.string().max(64), z.unknown())
    .refine(
      (f) =>
        typeof f['from'] === 'string' &&
        typeof f['to'] === 'string' &&
        (f['opening'] === null || typeof f['opening'] === 'number') &&
        (f['closing'] === null || typeof f['closing'] === 'number'),
      'expected the figures of a monthly pack (from, to, opening, closing)',
    ),
  hash: sha256,
  parts: z.record(z.string().max(64), z.union([sha256, z.literal('missing')])).refine((r) => Object.keys(r).length <= 50, 'at most 50 parts'),
  basis: z
    .array(
      z.strictObject({
        wallet: address,
        chain: chainId,
        endpoint: z.string().max(64),
        asOf: day,
        id: z.number().int().min(0),
        sha256,
        // Since schema version 22 (a close made before has none).
        content: sha256.optional(),
      }),
    )
    .max(1_000_000),
  reopenedAt: z.iso.datetime().nullable(),
  reopenReason: z.string().max(500).nullable(),
  // Who closed and reopened it (issue 37 item 1); absent in a file written before closes named people.
  closedBy: z.string().min(1).max(200).optional(),
  reopenedBy: z.string().min(1).max(200).optional(),
  // Who prepared it and when, before another approved (closed) it (issue 37 item 4); absent for
  // a close made in one step before closes were prepared, or in a file written before.
  preparedAt: z.iso.datetime().optional(),
  preparedBy: z.string().min(1).max(200).optional(),
});

/**
 * A spam verdict (docs/spam.md): a token (its chain and contract), a contract or an address, spam
 * or not, for one wallet or (null) every wallet; checked again as the app checks a mark.
 */
const SpamVerdictV1 = z.strictObject({
  kind: z.enum(['token', 'contract', 'address']),
  chain: chainId.nullable(),
  target: address,
  wallet: address.nullable(),
  verdict: z.enum(['spam', 'not-spam']),
  note: z.string().max(500),
});

/**
 * A spam list the user imported (docs/spam.md, "Lists"): the name it is kept by, when it was
 * imported (its place among the lists: the newest decides first), the SHA-256 of the file it came
 * from, and the list as kept. The list is an object here; an import checks it as `folioscope spam
 * lists import` checks a list file (userdata/plan.ts), and refuses the whole file if it fails.
 */
const SpamListV1 = z.strictObject({
  name: z.string().min(1).max(100),
  importedAt: z.iso.datetime(),
  sha256,
  list: z.record(z.string().max(64), z.unknown()),
});

/**
 * Every setting but the base URL and the recent window (a profile's, that is one service's, not
 * data: the window is learned and set per service): a file may carry some of them.
 */
const SettingsV1 = SettingsSchema.omit({ baseUrl: true, recentWindowHours: true }).partial();

export const UserDataV1 = z.strictObject({
  format: z.literal(USER_DATA_FORMAT),
  version: z.literal(USER_DATA_VERSION),
  exportedAt: z.iso.datetime(),
  /** The Folioscope that wrote it, for people reading the file. */
  app: z.string().max(100),
  data: z.strictObject({
    wallets: z.array(WalletV1).max(100_000),
    groups: z.array(GroupV1).max(10_000),
    schedules: z.array(ScheduleV1).max(10_000),
    /** Always written; optional on read (files written before alert rules were carried hold none). */
    alertRules: z
      .array(AlertRuleV1)
      .max(10_000)
      .default(() => []),
    /** Notes, categories and rules: optional on read, as alert rules are (older files hold none). */
    categories: z
      .array(CategoryV1)
      .max(10_000)
      .default(() => []),
    rules: z
      .array(RuleV1)
      .max(10_000)
      .default(() => []),
    notes: z
      .array(NoteV1)
      .max(100_000)
      .default(() => []),
    settings: SettingsV1,
    /** The address book. Always written; optional on read (files written before it hold none). */
    counterparties: z
      .array(CounterpartyV1)
      .max(100_000)
      .default(() => []),
    /** Closed periods, with their reopens. Always written; optional on read (files written before closes were carried hold none). */
    closedPeriods: z
      .array(ClosedPeriodV1)
      .max(100_000)
      .default(() => []),
    /** The user's spam verdicts. Always written; optional on read (files written before spam was carried hold none). */
    spamVerdicts: z
      .array(SpamVerdictV1)
      .max(100_000)
      .default(() => []),
    /** The spam lists the user imported, newest first. Always written; optional on read (files written before lists were carried hold none). */
    spamLists: z
      .array(SpamListV1)
      .max(1_000)
      .default(() => []),
  }),
});
export type UserData = z.output<typeof UserDataV1>;
export type UserDataSchedule = z.output<typeof ScheduleV1>;
export type UserDataAlertRule = z.output<typeof AlertRuleV1>;
export type UserDataCounterparty = z.output<typeof CounterpartyV1>;
export type UserDataCategory = z.output<typeof CategoryV1>;
export type UserDataRule = z.output<typeof RuleV1>;
export type UserDataNote = z.output<typeof NoteV1>;
export type UserDataClosedPeriod = z.output<typeof ClosedPeriodV1>;
export type UserDataSpamVerdict = z.output<typeof SpamVerdictV1>;
export type UserDataSpamList = z.output<typeof SpamListV1>;

/**
 * The key derivation of an encrypted file: scrypt with these parameters (N = 2^17, r = 8,
 * p = 1: 128 MiB and about half a second here, OWASP's recommendation for scrypt), a 16-byte
 * random salt, a 32-byte key for AES-256-GCM with a 12-byte random IV and a 16-byte tag.
 */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The most a file may ask of scrypt: parameters from a file are bounded before any work. */
const SCRYPT_MAX_MEMORY = 1024 * 2 ** 20;

const b64 = (bytes: number) =>
  z
    .string()
    .max(Math.ceil(bytes / 3) * 4 + 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .refine((v) => Buffer.from(v, 'base64').length === bytes, `expected ${bytes} bytes in base64`);
const EncryptionV1 = z.strictObject({
  kdf: z.literal('scrypt'),
  ...scryptCosts,
  salt: b64(16),
  cipher: z.literal('aes-256-gcm'),
  iv: b64(12),
  tag: b64(16),
});
const EncryptedV1 = z.strictObject({
  format: z.literal(USER_DATA_FORMAT),
  version: z.literal(USER_DATA_VERSION),
  encryption: EncryptionV1,
  ciphertext: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
type Encryption = z.output<typeof EncryptionV1>;

function deriveKey(passphrase: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 128 * p.N * p.r * p.p + 2 ** 20 };
  return new Promise((resolve, reject) => scryptCallback(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * The header an encrypted file authenticates (GCM's additional data): its format, version and
 * every parameter but the tag, so a changed parameter fails as a changed ciphertext does.
 */
const headerOf = (e: Omit<Encryption, 'tag'>) =>
  Buffer.from(JSON.stringify([USER_DATA_FORMAT, USER_DATA_VERSION, e.kdf, e.N, e.r, e.p, e.salt, e.cipher, e.iv]));

/** The file's text: the document as JSON, or (with a passphrase) encrypted, its parameters in the header. */
export async function writeUserDataFile(doc: UserData, passphrase?: string): Promise<string> {
  const plain = JSON.stringify(doc, null, 2) + '\n';
  if (passphrase === undefined) return plain;
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, salt, SCRYPT);
  const params = { kdf: 'scrypt' as const, ...SCRYPT, salt: salt.toString('base64'), cipher: 'aes-256-gcm' as const, iv: iv.toString('base64') };
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(headerOf(params));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const file = {
    format: USER_DATA_FORMAT,
    version: USER_DATA_VERSION,
    encryption: { ...params, tag: cipher.getAuthTag().toString('base64') },
    ciphertext: ciphertext.toString('base64'),
  };
  return JSON.stringify(file, null, 2) + '\n';
}

const refuse = (why: string) => new ValidationError('file', `${why} Nothing was imported.`);

function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0]!;
  return `${issue.path.join('.') || 'file'}: ${issue.message}`;
}

/**
 * Reads a data file's text: refuses (with what is wrong, having changed nothing) anything but a
 * version 1 Folioscope data file, and an encrypted one without its passphrase or with a wrong one.
 */
export async function readUserDataFile(text: string, passphrase?: string): Promise<{ doc: UserData; encrypted: boolean }> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw refuse('This is not a Folioscope data file (it is not JSON).');
  }
  const head = raw as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || Array.isArray(head) || head.format !== USER_DATA_FORMAT)
    throw refuse(`This is not a Folioscope data file (its "format" is not "${USER_DATA_FORMAT}").`);
  if (head.version !== USER_DATA_VERSION)
    throw refuse(
      `This data file is version ${JSON.stringify(head.version)?.slice(0, 20)}; this Folioscope reads version ${USER_DATA_VERSION} only. A newer Folioscope wrote it: update Folioscope.`,
    );
  if (!Object.hasOwn(head, 'encryption')) {
    const doc = UserDataV1.safeParse(raw);
    if (!doc.success) throw refuse(`This data file is not valid (${firstIssue(doc.error)}).`);
    return { doc: doc.data, encrypted: false };
  }
  const enc = EncryptedV1.safeParse(raw);
  if (!enc.success) throw refuse(`This encrypted data file is not valid (${firstIssue(enc.error)}).`);
  const e = enc.data.encryption;
  if (128 * e.N * e.r * e.p > SCRYPT_MAX_MEMORY) throw refuse('This encrypted data file asks for more memory than Folioscope gives scrypt (at most 1 GiB).');
  if (passphrase === undefined) throw new ValidationError('passphrase', 'This data file is encrypted: give its passphrase.');
  const key = await deriveKey(passphrase, Buffer.from(e.salt, 'base64'), e);
  let plain: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(e.iv, 'base64'));
    decipher.setAAD(headerOf(e));
    decipher.setAuthTag(Buffer.from(e.tag, 'base64'));
    plain = Buffer.concat([decipher.update(Buffer.from(enc.data.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    // GCM cannot tell a wrong key from changed bytes: both fail its check.
    throw new ValidationError('passphrase', 'The passphrase is wrong (or the file was changed since it was written). Nothing was imported.');
  }
  let inner: unknown;
  try {
    inner = JSON.parse(plain);
  } catch {
    throw refuse('The decrypted data is not JSON.');
  }
  const doc = UserDataV1.safeParse(inner);
  if (!doc.success) throw refuse(`The decrypted data is not valid (${firstIssue(doc.error)}).`);
  return { doc: doc.data, encrypted: true };
}
