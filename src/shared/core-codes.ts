/**
 * The core's refusals a user meets on a screen (a wallet's address, a label, a group's name, a
 * close, a wallets file, a full disk …), each as a code and its values. The core writes its
 * English message from `englishCoreCodes` (one text: the CLI's, the web shell's, the English
 * screen's) and sends the code and values beside it (SerializedError `said`); a screen in another
 * language says it again from them (renderer lib/core-text.ts `errorText`, words.de.ts
 * `coreCodes`). Values are plain strings and numbers (and, for a refusal wrapping another, that one's code):
 * what the user typed or the file held is shown as it is.
 */
import type { Permission, Role } from './roles.ts';

/** Why a text is refused: an invisible control or direction character, or half of a surrogate pair (its code, e.g. "U+202E"). */
export type UnsafeKind = 'control' | 'broken';
/** The texts a user names things with, as the messages name them. */
export type TextField = 'label' | 'tag' | 'groupName' | 'name' | 'note' | 'categoryName' | 'ruleName' | 'counterpartyName';

/** The records an edit of a stale version is refused for (`edit.stale`). */
export type EditedEntity =
  'wallet' | 'group' | 'counterparty' | 'category' | 'rule' | 'note' | 'alert-rule' | 'schedule' | 'spam-verdict' | 'spam-list' | 'setting';

export interface CoreCodeValues {
  /**
   * An input the contract's schema refused: `field` the input's path (e.g. "conditions.maxAmount"),
   * `detail` the schema's own English message (the English is "field: detail", as the shells
   * always wrote it); the code says which kind, so another language need not repeat the English.
   */
  'input.tooLong': { field: string; detail: string; max: number };
  'input.empty': { field: string; detail: string };
  'input.notNumber': { field: string; detail: string };
  'input.tooSmall': { field: string; detail: string; min: number };
  'input.tooBig': { field: string; detail: string; max: number };
  'input.unsafe': { field: string; detail: string; kind: UnsafeKind; char: string };
  'input.invalid': { field: string; detail: string };
  'rule.amountNeedsToken': { field: string; detail: string };
  'rule.amountOrder': { field: string; detail: string };
  'address.empty': Record<string, never>;
  'address.spaces': Record<string, never>;
  'address.tooLong': { max: number };
  'address.notAscii': Record<string, never>;
  'address.notEvm': Record<string, never>;
  'chains.none': Record<string, never>;
  'chains.badId': { chain: string };
  /** A chain a file names that the app does not know: the known ones listed, numeric ids allowed or not. */
  'chains.unknown': { chain: string; known: string; numeric: boolean };
  'date.invalid': { value: string };
  'text.unsafe': { field: TextField; kind: UnsafeKind; char: string };
  'text.tooLong': { field: TextField; max: number };
  'tag.tooLong': { tag: string; max: number };
  'tag.semicolon': { tag: string };
  'tags.tooMany': { max: number };
  'name.empty': Record<string, never>;
  'wallet.watched': { address: string; label: string };
  'wallet.notWatched': { address: string };
  'wallet.rewritten': { chains: string; address: string };
  'group.missing': { id: number };
  'group.noName': Record<string, never>;
  'group.exists': { name: string };
  'group.notWatched': { addresses: string };
  'close.noWallets': { scope: string };
  'close.closedAlready': { scope: string; from: string; to: string; id: number; at: string };
  /** The pack's reasons: the core's sentences (shared/core-sentences.ts), said again as such. */
  'close.partial': { scope: string; from: string; to: string; reasons: string };
  'close.noReason': Record<string, never>;
  'close.missing': { id: number };
  'close.reopenedAlready': { scope: string; from: string; to: string; id: number; at: string };
  'close.preparedAlready': { scope: string; from: string; to: string; id: number; at: string };
  /** `state`: the close's state (closed, flagged, reopened, rejected, prepared). */
  'close.notPrepared': { id: number; scope: string; from: string; to: string; state: string };
  'close.notClosed': { id: number; scope: string; from: string; to: string; state: string };
  'close.ownApproval': { id: number; scope: string; from: string; to: string; person: string };
  /** `parts`: the hashed parts that changed, comma-separated (transactions, names, …). */
  'close.changedSincePrepared': { id: number; scope: string; from: string; to: string; at: string; parts: string };
  'close.noRejectReason': Record<string, never>;
  'close.teamPrepares': Record<string, never>;
  /** A bulk edit of wallets refused whole. */
  'bulk.notWatched': { addresses: string; more: number };
  'bulk.groupMissing': { id: number };
  'bulk.groupBoth': { id: number };
  'bulk.removeAndChange': Record<string, never>;
  'bulk.noChain': { address: string };
  /** One wallet's change refused (`problem` in English; `inner` its code, when it has one). */
  'bulk.wallet': { address: string; problem: string; inner?: CoreSaid };
  'import.empty': Record<string, never>;
  'import.tooMany': { rows: number; max: number };
  'import.badHeader': { columns: string; unknown: string };
  /** A wallets file's row (its problem starts lower case: it follows the line number). */
  'row.fields': { fields: number; header: number };
  'row.noChain': Record<string, never>;
  'row.notOurs': Record<string, never>;
  'row.labelledBefore': { line: number; label: string };
  'row.joined': { line: number };
  'row.watchedAs': { label: string };
  'storage.diskFull': Record<string, never>;
  'storage.damaged': { code: string };
  'storage.readOnly': Record<string, never>;
  /** A change asked of a cache opened read-only (its file named). */
  'storage.readOnlyCache': { file: string };
  'storage.unwritable': { code: string };
  'storage.inUse': { path: string };
  'cache.wrongPassphrase': Record<string, never>;
  /** The passphrase from before a change of key that a stop left midway (the new one finishes it). */
  'cache.passphraseBefore': Record<string, never>;
  /** Categories, rules and notes (the Rules dialog, a transaction's note). */
  'category.missing': { name: string };
  'category.noName': Record<string, never>;
  'category.colour': Record<string, never>;
  'category.kind': { kinds: string };
  'category.exists': { name: string };
  'category.missingId': { id: number };
  'category.inUse': { name: string; count: number; rules: string };
  'rules.notEvm': { value: string };
  'rules.noCondition': Record<string, never>;
  'rules.amountToken': Record<string, never>;
  'rules.amountOrder': Record<string, never>;
  'rules.missing': { id: number };
  'rules.order': Record<string, never>;
  'txn.notCached': { hash: string; wallet: string; chain: string };
  /** Syncing: a wallet not watched, a history's range, a transaction's hash. */
  'sync.notWatched': { address: string };
  'range.endBeforeStart': Record<string, never>;
  'range.tooMany': { dates: number };
  'txn.badHash': Record<string, never>;
  /** The access key as typed in Settings (`what`: where the key came from, in the core's English). */
  'key.empty': { what: string };
  'key.spaces': { what: string };
  'key.notAscii': { what: string };
  'key.tooLong': { what: string; length: number; max: number };
  'key.tooShort': { what: string; min: number };
  'url.invalid': Record<string, never>;
  'url.scheme': Record<string, never>;
  'url.credentials': Record<string, never>;
  'cache.busy': Record<string, never>;
  'settings.displayNeedsPerson': Record<string, never>;
  'backup.busy': Record<string, never>;
  'encryption.none': Record<string, never>;
  'encryption.already': { source: 'keychain' | 'passphrase' };
  /** Turning off a folder encrypted with a passphrase without typing it (Settings, cache.decrypt). */
  'encryption.passphraseNeeded': Record<string, never>;
  /** Changing the key of a folder encrypted with a passphrase without typing it (Settings, cache.rekey). */
  'encryption.passphraseToChange': Record<string, never>;
  /** A change of key a stop left midway and a failure could not undo: the next start finishes it. */
  'encryption.changeUnfinished': Record<string, never>;
  /** Jobs running (their names as the core labels them) when an edit needs none: `then` is what to do after cancelling them. */
  'jobs.running': { count: number; names: string; then: 'restore' | 'try again' };
  /**
   * An edit made on a version of a record someone has changed since (issue 37 item 5): which kind
   * of record and its name as the screens show it (a wallet's label, a group's name …), `person`
   * who changed it (null: an edit recorded before people were, or made outside any operation), `at`
   * when (ISO; null likewise).
   */
  'edit.stale': { entity: EditedEntity; name: string; person: string | null; at: string | null };
  /** An operation the signed-in person's role may not do on a team server (src/shared/roles.ts): `op` the operation, `needs` the permission it needs. */
  'role.forbidden': { person: string; role: Role; op: string; needs: Permission };
  /** A team server's service and key asked to change over its API (`op`): they are set on its machine. */
  'team.serviceOnServer': { op: string };
  'team.encryptionOnServer': { op: string };
  /** The desktop's offline copy of a team server's books (docs/team.md, "The desktop on a team server"): `madeAt` ISO. */
  'team.replicaReadOnly': { origin: string; madeAt: string; op: string };
  'team.desktopOnly': Record<string, never>;
  /** A desktop's sign-in to a team server (POST api/device-token) refused: said by the server, shown in the desktop's Settings → Team. */
  'team.signInWrong': Record<string, never>;
  'team.signInLocked': { minutes: number };
  'team.slowDown': { seconds: number; why: 'rate' | 'concurrent' };
  'team.stillBusy': { minutes: number };
  'team.tooManyTokens': { max: number };
  'team.signInDisabled': Record<string, never>;
  /** A server that signs in through its provider only (`provider` its name): a desktop pastes a token instead. */
  'team.noPasswords': { provider: string };
}

export type CoreCode = keyof CoreCodeValues;
export type CoreCodeSentences = { [K in CoreCode]: (v: CoreCodeValues[K]) => string };
/** A refusal as a code and its values. */
export type CoreSaid = { [K in CoreCode]: { code: K; values: CoreCodeValues[K] } }[CoreCode];

/** An ISO instant as a person reads it, to the minute (the CLI's and the English screen's). */
const minuteUtc = (iso: string): string => (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso);
/** A team server's address as a person names it: its host (and port), without the scheme. */
export const hostOf = (origin: string): string =>
  String(origin ?? '')
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/$/, '');
const EDITED: Record<EditedEntity, string> = {
  wallet: 'The wallet',
  group: 'The group',
  counterparty: 'The address book entry',
  category: 'The category',
  rule: 'The rule',
  note: 'The note of transaction',
  'alert-rule': 'The alert rule',
  schedule: 'The schedule',
  'spam-verdict': 'The spam verdict on',
  'spam-list': 'The spam list',
  setting: 'The setting',
};
const ROLE_NAME: Record<Role, string> = { owner: 'an owner', preparer: 'a preparer', approver: 'an approver', viewer: 'a viewer', auditor: 'an auditor' };
const NEED: Record<Permission, string> = {
  read: 'this needs permission to read the books',
  books: 'changing the books needs a preparer',
  prepare: 'preparing a close needs a preparer',
  approve: 'approving, rejecting or reopening a close needs an approver',
  admin: 'this needs an owner (the server, its service or its people)',
};
const schemaEnglish = ({ field, detail }: { field: string; detail: string }): string => `${field}: ${detail}`;
const TEXT: Record<TextField, string> = {
  label: 'The label',
  tag: 'A tag',
  groupName: 'The group name',
  name: 'The name',
  note: 'The note',
  categoryName: 'The category name',
  ruleName: 'The rule name',
  counterpartyName: 'A counterparty name',
};

/** The core's English, word for word: the messages are written from these. */
export const englishCoreCodes: CoreCodeSentences = {
  // The schema's refusals as the shells always wrote them: the field, then the schema's message.
  'input.tooLong': schemaEnglish,
  'input.empty': schemaEnglish,
  'input.notNumber': schemaEnglish,
  'input.tooSmall': schemaEnglish,
  'input.tooBig': schemaEnglish,
  'input.unsafe': schemaEnglish,
  'input.invalid': schemaEnglish,
  'rule.amountNeedsToken': schemaEnglish,
  'rule.amountOrder': schemaEnglish,
  'address.empty': () => 'Enter a wallet address.',
  'address.spaces': () => 'The address contains spaces; paste it without spaces or line breaks.',
  'address.tooLong': ({ max }) => `The address is too long (at most ${max} characters).`,
  'address.notAscii': () => 'The address may only contain printable ASCII characters.',
  'address.notEvm': () => 'Not an EVM address: expected 0x followed by 40 hexadecimal characters.',
  'chains.none': () => 'Choose at least one chain.',
  'chains.badId': ({ chain }) => `"${chain}" is not a chain id (letters, digits, _ . : - only).`,
  'chains.unknown': ({ chain, known, numeric }) => `unknown chain "${chain}" (known: ${known}${numeric ? ', or an EIP-155 chain id' : ''}).`,
  'date.invalid': ({ value }) => `"${value}" is not a date: use YYYY-MM-DD.`,
  'text.unsafe': ({ field, kind, char }) =>
    `${TEXT[field]} ${kind === 'control' ? `contains an invisible control or text-direction character (${char}); remove it` : `contains a broken character (an unpaired ${char}); remove it`}.`,
  'text.tooLong': ({ field, max }) => `${TEXT[field]} is too long (at most ${max} characters).`,
  'tag.tooLong': ({ tag, max }) => `The tag "${tag}…" is too long (at most ${max} characters).`,
  'tag.semicolon': ({ tag }) => `The tag "${tag}" contains ";", which separates tags.`,
  'tags.tooMany': ({ max }) => `At most ${max} tags.`,
  'name.empty': () => 'Enter a name.',
  'wallet.watched': ({ address, label }) => `${address} is already watched${label ? ` as "${label}"` : ''}.`,
  'wallet.notWatched': ({ address }) => `${address} is not a watched wallet.`,
  'wallet.rewritten': ({ chains, address }) => `On ${chains} this address is written ${address}; remove the wallet and add it again on these chains.`,
  'group.missing': ({ id }) => `There is no wallet group ${id}.`,
  'group.noName': () => 'Give the group a name.',
  'group.exists': ({ name }) => `A group named "${name}" exists already.`,
  'group.notWatched': ({ addresses }) => `Not watched: ${addresses}. Add the wallet first.`,
  'close.noWallets': ({ scope }) => `${scope} has no wallets: there is nothing to close.`,
  'close.closedAlready': ({ scope, from, to, id, at }) =>
    `${scope}, ${from} to ${to} is closed already (close ${id}, ${at}). Reopen it with a reason to close it again.`,
  'close.partial': ({ scope, from, to, reasons }) =>
    `The pack for ${scope}, ${from} to ${to} is partial, so it cannot be closed: ${reasons || 'not every figure is known.'}`,
  'close.noReason': () => 'Give a reason for reopening the period: it is kept in the audit trail.',
  'close.missing': ({ id }) => `There is no closed period ${id}.`,
  'close.reopenedAlready': ({ scope, from, to, id, at }) => `Close ${id} (${scope}, ${from} to ${to}) was reopened already, at ${at}.`,
  'close.preparedAlready': ({ scope, from, to, id, at }) =>
    `${scope}, ${from} to ${to} is prepared already (close ${id}, ${at}) and waits for approval: approve or reject it first.`,
  'close.notPrepared': ({ id, scope, from, to, state }) =>
    `Close ${id} (${scope}, ${from} to ${to}) is ${state}: only a prepared close waiting for approval can be approved or rejected.`,
  'close.notClosed': ({ id, scope, from, to, state }) =>
    `Close ${id} (${scope}, ${from} to ${to}) is ${state}, not closed: only a closed period can be reopened.`,
  'close.ownApproval': ({ id, scope, from, to, person }) =>
    `${person} prepared close ${id} (${scope}, ${from} to ${to}), so cannot approve it: on a team server a close is prepared by one person and approved by another.`,
  'close.changedSincePrepared': ({ id, scope, from, to, at, parts }) =>
    `The data behind close ${id} (${scope}, ${from} to ${to}) changed since it was prepared (${at}): ${parts}. Approving it would close other figures than those prepared; reject it and prepare it again.`,
  'close.noRejectReason': () => 'Give a reason for rejecting the close: it is kept with it and in the audit trail.',
  'close.teamPrepares': () => 'On a team server a close is prepared, then approved by another person: prepare it, and an approver closes it.',
  'bulk.notWatched': ({ addresses, more }) => `Not watched: ${addresses}${more > 0 ? ` and ${more} more` : ''}. Nothing was changed.`,
  'bulk.groupMissing': ({ id }) => `There is no wallet group ${id}. Nothing was changed.`,
  'bulk.groupBoth': ({ id }) => `Group ${id} is both added to and removed from: say one. Nothing was changed.`,
  'bulk.removeAndChange': () => 'Removing wallets is an edit of its own: remove them, or change them, not both. Nothing was changed.',
  'bulk.noChain': ({ address }) => `${address} would be left on no chain. Nothing was changed.`,
  'bulk.wallet': ({ address, problem }) => `${address}: ${problem} Nothing was changed.`,
  'import.empty': () => 'The file is empty: expected a header line (address,label,chains,…) and a row per wallet.',
  'import.tooMany': ({ rows, max }) => `The file has ${rows} rows; at most ${max} are read at once.`,
  'import.badHeader': ({ columns, unknown }) =>
    `Line 1 is not a wallets header: expected ${columns} (address required), Safe's address,name,chainId, or an address-book export${unknown ? `; not a column: ${unknown}` : ''}.`,
  'row.fields': ({ fields, header }) => `has ${fields} fields, the header ${header}.`,
  'row.noChain': () => 'names no chain: give its chains (eth;arb) or an EIP-3770 prefix (eth:0x…).',
  'row.notOurs': () => 'not one of yours in the address book ("ours" is false)',
  'row.labelledBefore': ({ line, label }) => `line ${line} labels this address "${label}"`,
  'row.joined': ({ line }) => `joined to line ${line}`,
  'row.watchedAs': ({ label }) => `watched as "${label}" (import with replace to take the file's label)`,
  'storage.diskFull': () => 'The disk is full: nothing was saved from this step. Free some space and try again.',
  'storage.damaged': ({ code }) =>
    `The local cache is damaged (${code}); nothing from this step was saved. Restart Folioscope: it offers to open the cache read-only, move it aside and rebuild, or use another folder.`,
  'storage.readOnly': () => 'The cache is open read-only: viewing and exports work; syncing and changes do not.',
  'storage.readOnlyCache': ({ file }) =>
    `The cache is open read-only (${file}): viewing and exports work; syncing and changes do not. Restart to move it aside and rebuild, or choose another data folder.`,
  'storage.unwritable': ({ code }) => `The local cache could not be written (${code}). Nothing from this step was saved.`,
  'storage.inUse': ({ path }) =>
    `${path} is open in another Folioscope (the app, the web shell, or a command such as watch): close it and try again. Nothing was changed.`,
  'cache.wrongPassphrase': () => 'That is not the passphrase this data folder was encrypted with. Nothing was changed: type it again.',
  'cache.passphraseBefore': () =>
    'That is the passphrase from before the change: the change of this data folder’s passphrase stopped midway, and the new passphrase finishes it. Nothing was changed: type the new one.',
  'category.missing': ({ name }) => `There is no category "${name}" (see the categories list).`,
  'category.noName': () => 'A category needs a name.',
  'category.colour': () => 'A colour is written #rrggbb.',
  'category.kind': ({ kinds }) => `A kind is one of ${kinds}.`,
  'category.exists': ({ name }) => `There is already a category named "${name}".`,
  'category.missingId': ({ id }) => `There is no category ${id}.`,
  'category.inUse': ({ name, count, rules }) =>
    `"${name}" is set by ${count === 1 ? 'a rule' : `${count} rules`} (${rules}); change or remove ${count === 1 ? 'it' : 'them'} first.`,
  'rules.notEvm': ({ value }) => `${value} is not an EVM address: expected 0x followed by 40 hexadecimal characters.`,
  'rules.noCondition': () => 'A rule needs at least one condition (it would otherwise file every transaction).',
  'rules.amountToken': () => 'An amount range is of one token: name the token too.',
  'rules.amountOrder': () => 'The largest amount is below the smallest.',
  'rules.missing': ({ id }) => `There is no rule ${id}.`,
  'rules.order': () => 'Name every rule once, in the new order (see rules list).',
  'txn.notCached': ({ hash, wallet, chain }) => `${hash} is not a cached transaction of ${wallet} on ${chain}.`,
  'sync.notWatched': ({ address }) => `${address} is not a watched wallet; add it first.`,
  'range.endBeforeStart': () => 'The end date is before the start date.',
  'range.tooMany': ({ dates }) => `That is ${dates} dates; choose a shorter range or a longer step.`,
  'txn.badHash': () => 'Not a transaction hash: expected 0x followed by 64 hexadecimal characters.',
  'key.empty': ({ what }) => `${what} is empty.`,
  'key.spaces': ({ what }) => `${what} contains spaces; paste it exactly as issued.`,
  'key.notAscii': ({ what }) =>
    `${what} holds characters other than letters, digits and ASCII punctuation: Folioscope takes keys of those only. Paste it exactly as issued.`,
  'key.tooLong': ({ what, length, max }) => `${what} is ${length} characters long: Folioscope takes keys of at most ${max}. Paste it exactly as issued.`,
  'key.tooShort': ({ what, min }) =>
    `${what} is too short to be a secret: Folioscope needs at least ${min} characters. Use the key exactly as the service issued it.`,
  'url.invalid': () => "That is not a URL: enter the service's base URL, e.g. https://api.example.com.",
  'url.scheme': () => 'The base URL must start with https:// (or http:// for a local service).',
  'url.credentials': () => 'Put the access key in the key field, not in the base URL.',
  'cache.busy': () => 'A restore or a conversion of the cache is under way already.',
  'settings.displayNeedsPerson': () =>
    'Only a person signed in to a team server has a display of their own. Here the theme, language and time zone are the settings: change them in Settings, under Preferences.',
  'backup.busy': () => 'A restore is under way already.',
  'encryption.none': () => 'This data folder is not encrypted. Nothing was changed.',
  'encryption.already': ({ source }) =>
    `This data folder is already encrypted, with ${source === 'keychain' ? 'a key in the system keychain' : 'a passphrase'}. To change that, change its key (Settings → Encryption, or folioscope cache rekey). Nothing was changed.`,
  'encryption.passphraseNeeded': () => 'This data folder is encrypted with a passphrase: type it to turn encryption off. Nothing was changed.',
  'encryption.passphraseToChange': () => 'This data folder is encrypted with a passphrase: type it to change its key. Nothing was changed.',
  'encryption.changeUnfinished': () =>
    'A change of this data folder’s key stopped midway: restart Folioscope (or run any folioscope command) with the new key to finish it, then try again. Nothing was changed.',
  'edit.stale': ({ entity, name, person, at }) =>
    `${EDITED[entity]} "${name}" was changed by ${person ?? 'someone else'}${at ? ` at ${minuteUtc(at)}` : ''} since you opened it: reload it and make your edit again. Nothing was changed.`,
  'role.forbidden': ({ person, role, op, needs }) =>
    `${person} is signed in as ${ROLE_NAME[role]}, and ${NEED[needs]}: ask an owner of this server if you need it. Nothing was changed. (${op})`,
  'team.serviceOnServer': ({ op }) =>
    `On a team server its service and access key are set on the server's machine (folioscope key set, or FOLIOSCOPE_ACCESS_KEY), never through a browser or its API: the people's books live in that service's cache. Nothing was changed. (${op})`,
  'team.encryptionOnServer': ({ op }) =>
    `On a team server its data folder is encrypted, decrypted and unlocked on the server's machine (folioscope cache encrypt|decrypt|rekey, FOLIOSCOPE_CACHE_PASSPHRASE), never through a browser or its API: a passphrase never leaves that machine. Nothing was changed. (${op})`,
  'team.replicaReadOnly': ({ origin, madeAt, op }) =>
    `This is a read-only copy of ${hostOf(origin)} from ${minuteUtc(madeAt)}: edits, syncs and closes are made on the server. Nothing was changed. (${op})`,
  'team.desktopOnly': () => 'Signing in to a team server is done in the desktop app (Settings → Team) or folioscope serve; the CLI uses --server with a token.',
  'team.signInWrong': () => 'That name and password do not match.',
  'team.signInLocked': ({ minutes }) => `Too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  'team.slowDown': ({ seconds, why }) =>
    `${why === 'rate' ? 'You have asked the team server for more than it gives one person in a while' : 'You have many requests under way on the team server already'}: try again in ${seconds} second${seconds === 1 ? '' : 's'}. Nothing was changed.`,
  'team.stillBusy': ({ minutes }) =>
    `The team server asked you to slow down each time it was asked again for ${minutes} minute${minutes === 1 ? '' : 's'}: the request was not made. Nothing was changed. Try again later; if it keeps happening, ask an owner whether the server's request limit is set too low.`,
  'team.tooManyTokens': ({ max }) =>
    `You have ${max} API tokens on this server, the most one person may have: ask an owner to revoke one you no longer use (folioscope users tokens, then users revoke-token), then sign in again. Nothing was changed.`,
  'team.signInDisabled': () => 'This account is disabled: ask an owner.',
  'team.noPasswords': ({ provider }) => `This server takes no passwords: paste a token made with folioscope users token (it signs in with ${provider}).`,
  'jobs.running': ({ count, names, then }) => {
    const them = count === 1 ? 'it' : 'them';
    return `${count} job${count === 1 ? ' is' : 's are'} running (${names}): wait for ${them} to finish, or cancel ${them} and ${then}. Nothing was changed.`;
  },
};

/** A refusal said with `say` (the English words, or a screen's). */
export function sayCode(said: CoreSaid, say: CoreCodeSentences): string {
  return (say[said.code] as (v: CoreSaid['values']) => string)(said.values);
}

/** The English message of a refusal, and the refusal: what the core's errors carry. */
export function coded<K extends CoreCode>(code: K, values: CoreCodeValues[K]): { message: string; said: CoreSaid } {
  const said = { code, values } as CoreSaid;
  return { message: sayCode(said, englishCoreCodes), said };
}
