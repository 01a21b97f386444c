/**
 * The auditor's bundle of a closed period (issue 37 item 6; docs/closes.md, "The auditor's
 * bundle"): one zip file an auditor can check alone, with no cache, no service and no network.
 *
 * It holds the close's record (scope, period, who closed and reopened it, its hash and each
 * part's), the figures as stored at close, the pack's PDF and CSV as the app writes them, the audit
 * trail from the period's first day, and every input the hash covers: each part's text exactly as
 * it was hashed (closes/hash.ts `partText`: its name, then one row per line) and the snapshot
 * bodies the service sent, whose SHA-256 without their request id are the rows of the
 * `snapshot-contents` part. `verifyCloseBundle` recomputes each part's hash from its text, the
 * period's hash from those, each body's content hash against its row, and each document's SHA-256
 * against the manifest, and names what differs.
 *
 * What the check proves is that the bundle is the data its hash names: the hash itself is to be
 * compared with the one the auditor was given (the pack's PDF prints it; `--hash` checks it), since
 * a bundle rewritten whole, manifest included, is consistent with a hash of its own.
 */
import { createHash } from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { PeriodClose } from '../../../shared/closes.ts';
import type { ReadableDB } from '../store/handles.ts';
import { rawSnapshot } from '../positions/index.ts';
import { getClose } from './store/closes.ts';
import { hashOfParts, partNamed, partText } from './hash.ts';
import { ValidationError } from '../store/validation.ts';

export const BUNDLE_FORMAT = 'folioscope-close-bundle';
export const BUNDLE_VERSION = 1;

/** The documents the export writes for the bundle (the pack's PDF and CSV, the audit trail's CSV). */
export interface BundleDocuments {
  'pack.pdf': Uint8Array;
  'pack.csv': Uint8Array;
  'audit.csv': Uint8Array;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  version: number;
  /** The close's record as the cache keeps it, with each hashed part's SHA-256. */
  close: Pick<PeriodClose, 'id' | 'scope' | 'from' | 'to' | 'closedBy' | 'reopenedAt' | 'reopenedBy' | 'reopenReason' | 'hash'> & {
    /** A bundle is of a closed period only. */
    closedAt: string;
    parts: Record<string, string>;
    /**
     * Four eyes (issue 37 item 4): who prepared it and who approved (closed) it, and when; the
     * same person for a desktop's one-step close (`samePerson`). Absent in a bundle written before,
     * null for a close made before closes were prepared.
     */
    preparedAt?: string | null;
    preparedBy?: string | null;
    approvedAt?: string | null;
    approvedBy?: string | null;
    samePerson?: boolean;
  };
  /** Parts whose data in this cache no longer hashed as at close when the bundle was written (a flagged close). */
  changedSince: string[];
  /** The service's bodies behind `snapshot-contents`: the file, what it is, its SHA-256 as received and its request id. */
  snapshots: Array<{ file: string; wallet: string; chain: string; endpoint: string; asOf: string; sha256: string; requestId: string | null }>;
  /** The SHA-256 of every other file of the bundle (documents, figures, parts' texts, bodies). */
  files: Record<string, string>;
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const partFile = (name: string) => `parts/${name}.txt`;
/** A part's name as a file name: the names are the code's own (`snapshot-contents`), never the user's. */
const SAFE_PART = /^[a-z][a-z0-9-]{0,63}$/;

/** The bundle of close `id` as zip bytes. The documents are written by the caller (the export job), from the same close. */
export function closeBundle(db: ReadableDB, id: number, docs: BundleDocuments): Uint8Array {
  const c = getClose(db, id);
  if (!c) throw new ValidationError('close', `There is no close ${id}.`);
  if (c.closedAt === null) throw new ValidationError('close', `Close ${id} is ${c.state}, not closed: only a closed period has an auditor's bundle.`);
  const closedAt = c.closedAt;
  const period = { wallets: c.scope.members, from: c.from, to: c.to, group: c.scope.kind === 'group' ? c.scope.group : null };
  const entries: Record<string, Uint8Array> = {};
  const files: Record<string, string> = {};
  const add = (name: string, bytes: Uint8Array) => {
    entries[name] = bytes;
    files[name] = sha256(bytes);
  };
  for (const [name, bytes] of Object.entries(docs)) add(name, bytes);
  add('figures.json', strToU8(JSON.stringify(c.pack)));
  const changedSince: string[] = [];
  for (const [name, hash] of Object.entries(c.parts)) {
    const part = partNamed(name);
    if (!part || hash === 'missing' || !SAFE_PART.test(name)) continue;
    // The names as hashed at close when kept (a rename since changes no figure); every other part is the data now.
    const kept = name === 'names' && c.namesText !== null && sha256(c.namesText) === hash ? c.namesText : null;
    const text = kept ?? [...partText(db, part, period)].join('');
    if (sha256(text) !== hash) changedSince.push(name);
    add(partFile(name), strToU8(text));
  }
  // The bodies the close stood on, as the service sent them (its basis: the snapshots it hashed).
  const snapshots: BundleManifest['snapshots'] = [];
  for (const [i, s] of c.basis.entries()) {
    const raw = rawSnapshot(db, s.id);
    if (!raw) continue; // gone from this cache since: the part's row then has no body, which the check says
    const file = `snapshots/${String(i + 1).padStart(5, '0')}.json`;
    add(file, strToU8(raw.raw));
    snapshots.push({ file, wallet: s.wallet, chain: s.chain, endpoint: s.endpoint, asOf: s.asOf, sha256: raw.sha256, requestId: raw.requestId });
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    close: {
      id: c.id,
      scope: c.scope,
      from: c.from,
      to: c.to,
      closedAt,
      closedBy: c.closedBy,
      preparedAt: c.preparedAt,
      preparedBy: c.preparedBy,
      approvedAt: c.approvedAt,
      approvedBy: c.approvedBy,
      samePerson: c.samePerson,
      reopenedAt: c.reopenedAt,
      reopenedBy: c.reopenedBy,
      reopenReason: c.reopenReason,
      hash: c.hash,
      parts: c.parts,
    },
    changedSince,
    snapshots,
    files,
  };
  entries['manifest.json'] = strToU8(JSON.stringify(manifest, null, 2));
  entries['README.txt'] = strToU8(readme(manifest));
  // Stored, not deflated, for the documents that are compressed already; the same bytes for the same close.
  return zipSync(entries, { level: 6, mtime: new Date(closedAt) });
}

function readme(m: BundleManifest): string {
  return [
    `Folioscope: closed period ${m.close.scope.name}, ${m.close.from} to ${m.close.to} (close ${m.close.id}).`,
    `Closed ${m.close.closedAt}${m.close.closedBy ? ` by ${m.close.closedBy}` : ''}. SHA-256 of the data behind its figures: ${m.close.hash}`,
    ...(m.close.preparedAt
      ? [
          `Prepared ${m.close.preparedAt}${m.close.preparedBy ? ` by ${m.close.preparedBy}` : ''}; approved ${m.close.approvedAt ?? m.close.closedAt}${m.close.approvedBy ? ` by ${m.close.approvedBy}` : ''}${m.close.samePerson ? ' (prepared and approved by the same person)' : ''}.`,
        ]
      : []),
    '',
    'Check it with no cache and no network:  folioscope verify-bundle THIS-FILE --hash <the hash you were given>',
    '',
    'pack.pdf, pack.csv   the monthly pack as closed',
    'figures.json         the figures as stored at close',
    'audit.csv            the audit trail from the period’s first day',
    'parts/*.txt          each hashed part’s text, exactly as hashed (its SHA-256 is the part’s hash)',
    'snapshots/*.json     the service’s responses behind the snapshot-contents part',
    'manifest.json        the close’s record and the SHA-256 of every file',
    '',
  ].join('\n');
}

/** What a bundle's check found. */
export interface BundleCheck {
  /** The bundle is the data its close's hash names, every document as written, and (with `hash`) that hash is the one given. */
  ok: boolean;
  close: BundleManifest['close'];
  /** The period's hash recomputed from the parts' texts in the bundle. */
  hashNow: string;
  /** Each difference, naming the part or file. Empty when ok. */
  findings: string[];
  /** What was checked, counted. */
  checked: { parts: number; snapshots: number; files: number };
}

/**
 * Checks a bundle from its bytes alone. A file that is not a bundle (not a zip, no manifest, another
 * format) is refused with the reason; a bundle that is one but differs says what differs.
 */
export function verifyCloseBundle(bytes: Uint8Array, expectedHash?: string): BundleCheck {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (err) {
    throw new ValidationError('file', `This is not a Folioscope close bundle: it cannot be read as a zip file (${(err as Error).message}).`);
  }
  const manifestBytes = entries['manifest.json'];
  if (!manifestBytes) throw new ValidationError('file', 'This is not a Folioscope close bundle: it has no manifest.json.');
  let m: BundleManifest;
  try {
    m = JSON.parse(strFromU8(manifestBytes)) as BundleManifest;
  } catch {
    throw new ValidationError('file', 'This is not a Folioscope close bundle: its manifest.json is not JSON.');
  }
  if (m?.format !== BUNDLE_FORMAT)
    throw new ValidationError('file', `This is not a Folioscope close bundle (its manifest's format is not "${BUNDLE_FORMAT}").`);
  if (m.version !== BUNDLE_VERSION)
    throw new ValidationError(
      'file',
      `This close bundle is of version ${String(m.version)}; this Folioscope reads version ${BUNDLE_VERSION}. Use a newer Folioscope.`,
    );
  if (!m.close || typeof m.close.hash !== 'string' || typeof m.close.parts !== 'object' || !Array.isArray(m.close.scope?.members))
    throw new ValidationError('file', 'This close bundle’s manifest has no close record (its hash, parts and scope).');

  const findings: string[] = [];
  const changed = new Set(Array.isArray(m.changedSince) ? m.changedSince : []);
  // Every document, body and text as the manifest lists it.
  const listed = m.files && typeof m.files === 'object' ? m.files : {};
  for (const [name, hash] of Object.entries(listed)) {
    const b = entries[name];
    if (!b) findings.push(`${name}: missing from the bundle.`);
    else if (sha256(b) !== hash) findings.push(`${name}: changed (its SHA-256 is ${sha256(b)}, the manifest's ${hash}).`);
  }
  for (const name of Object.keys(entries))
    if (name !== 'manifest.json' && name !== 'README.txt' && !Object.hasOwn(listed, name)) findings.push(`${name}: not listed in the manifest.`);

  // Each part's hash from its text, and the period's from those.
  const parts: Record<string, string> = {};
  const texts = new Map<string, string>();
  for (const [name, hash] of Object.entries(m.close.parts)) {
    if (hash === 'missing' || !SAFE_PART.test(name)) {
      parts[name] = hash;
      continue;
    }
    const b = entries[partFile(name)];
    if (!b) {
      findings.push(`part "${name}": its text is missing from the bundle.`);
      parts[name] = 'absent';
      continue;
    }
    const text = strFromU8(b);
    texts.set(name, text);
    parts[name] = sha256(b);
    if (!text.startsWith(`${name}\n`)) findings.push(`part "${name}": its text does not begin with its name.`);
    if (parts[name] !== hash)
      findings.push(
        changed.has(name)
          ? `part "${name}": differs from the close; the bundle was written from this cache's data after it changed since the close (the close is flagged).`
          : `part "${name}": differs from the close (its SHA-256 is ${parts[name]}, the close's ${hash}).`,
      );
  }
  const hashNow = hashOfParts({ wallets: m.close.scope.members, from: m.close.from, to: m.close.to }, parts);
  if (hashNow !== m.close.hash) findings.push(`the period's hash: the parts give ${hashNow}, the close's is ${m.close.hash}.`);
  if (expectedHash !== undefined && expectedHash.toLowerCase() !== m.close.hash)
    findings.push(`the close's hash is ${m.close.hash}, not the ${expectedHash} given.`);

  // Each body against its row of snapshot-contents: the SHA-256 of what the service sent without its request id.
  const contents = texts.get('snapshot-contents');
  let snapshots = 0;
  if (contents !== undefined) {
    const rows = new Map<string, string>();
    for (const line of contents.split('\n').slice(1)) {
      if (!line) continue;
      try {
        const r = JSON.parse(line) as { wallet: string; chain: string; endpoint: string; asOf: string; content: string };
        rows.set(`${r.wallet}|${r.chain}|${r.endpoint}|${r.asOf}`, r.content);
      } catch {
        findings.push('part "snapshot-contents": a line is not JSON.');
      }
    }
    const bodies = new Set<string>();
    for (const s of Array.isArray(m.snapshots) ? m.snapshots : []) {
      const b = entries[s.file];
      if (!b) continue; // said above (listed in files)
      snapshots++;
      const key = `${s.wallet}|${s.chain}|${s.endpoint}|${s.asOf}`;
      bodies.add(key);
      const raw = strFromU8(b);
      if (sha256(b) !== s.sha256) findings.push(`${s.file} (${key}): not the body as received (its SHA-256 is ${sha256(b)}, received ${s.sha256}).`);
      const content = sha256(s.requestId ? raw.split(s.requestId).join('') : raw);
      const row = rows.get(key);
      if (row === undefined) findings.push(`${s.file} (${key}): no row of the snapshot-contents part names it.`);
      else if (row !== content) findings.push(`${s.file} (${key}): its content is not the one the close hashed (${content}, the part's ${row}).`);
    }
    for (const key of rows.keys()) if (!bodies.has(key)) findings.push(`snapshot-contents: the body of ${key} is not in the bundle.`);
  }
  return {
    ok: findings.length === 0,
    close: m.close,
    hashNow,
    findings,
    checked: { parts: texts.size, snapshots, files: Object.keys(listed).length },
  };
}
