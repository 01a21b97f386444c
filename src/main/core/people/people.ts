/**
 * The people of a team server (docs/team.md): who may sign in and with which role, their
 * sessions, their personal API tokens and the lock-out of repeated failed sign-ins. The shell
 * (src/main/team) speaks HTTP, cookies and CSRF; this holds what is stored and the rules over it.
 * Every time is the caller's clock (ms), so tests move time without sleeping.
 *
 * Nothing returned here but `signIn`'s session id and `createToken`'s token is a secret, and
 * those two are returned once: only their SHA-256 is kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Actor, isRole, ROLES, type Role, roleCovers } from '../../../shared/roles.ts';
import { unsafeChars } from '../../../shared/text-safety.ts';
import { recordEdit, withAuditOrigin, type EditAuthor } from '../store/audit.ts';
import type { ReadableDB, WritableDB } from '../store/handles.ts';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import * as store from './store/people.ts';

/** A session unused this long ends (checked at each request). */
export const IDLE_LIMIT_MS = 30 * 60_000;
/** A session ends this long after sign-in, however busy. */
export const ABSOLUTE_LIMIT_MS = 12 * 60 * 60_000;
/**
 * A person's live sessions at most: a sign-in past it ends their least recently used one. Signing
 * in is bounded by the lock-out for failures only, so without it a person who knows their password
 * could fill the file with sessions, one each scrypt allows.
 */
export const MAX_SESSIONS_PER_PERSON = 50;
/** A person's API tokens at most: one more is refused until one is revoked (a cron's token is never ended for another). */
export const MAX_TOKENS_PER_PERSON = 100;
/** How often a session's last use (and a token's) is written: once a minute is enough for a 30-minute idle limit. */
const TOUCH_EVERY_MS = 60_000;
/** Failed sign-ins for one name that lock it … */
export const NAME_FAILURES = 5;
/** … or from one address (higher: a team behind one proxy shares it; a sprayer of names does not get far). */
export const ADDRESS_FAILURES = 20;
/** … for this long after the last of them; failures older than this no longer count. */
export const LOCK_WINDOW_MS = 15 * 60_000;

export interface Person {
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: string;
  /** Whether the person has a password (one linked only to the provider has none). */
  password: boolean;
  /** Their account at the team's OpenID Connect provider, when an owner linked one. */
  oidc: OidcLink | null;
}

/** An account at an OpenID Connect provider: its issuer identifier and the subject (`sub`) it gives the person, both exactly as it sends them. */
export interface OidcLink {
  issuer: string;
  subject: string;
}

/**
 * The stored password of a person who has none (linked only to the provider; migration 29): no
 * scrypt hash equals it, and sign-in checks it as an unknown name's, against a dummy hash.
 */
const NO_PASSWORD = '!';

export type SignIn =
  { ok: true; sessionId: string; person: string; role: Role } | { ok: false; reason: 'wrong' | 'disabled' } | { ok: false; reason: 'locked'; until: number };

/** A sign-in through the provider: `unknown` when its account is linked to nobody here. */
export type OidcSignIn = { ok: true; sessionId: string; person: string; role: Role } | { ok: false; reason: 'unknown' | 'disabled' };

export interface SignedIn extends Actor {
  /** The session's id as stored (its hash): the shell keys its event streams by it. */
  key: string;
  /** The token a same-origin page sends back on every POST (derived from the session id, never stored). */
  csrf: string;
}

/** A refusal of a people operation, in words a CLI prints as they are. */
export class PeopleError extends Error {
  override name = 'PeopleError';
}

/** A person at MAX_TOKENS_PER_PERSON asked for another token (the team server says so in the asker's words). */
export class TooManyTokensError extends PeopleError {
  override name = 'TooManyTokensError';
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** The CSRF token of a session: a one-way function of its id, so the id cannot be read back from it. */
const csrfOf = (sessionId: string): string => createHash('sha256').update(`folioscope-csrf:${sessionId}`).digest('base64url');

/** The most a token of role `token` may do while its owner has role `owner`: the highest role both cover. */
export function cappedRole(owner: Role, token: Role): Role {
  return ROLES.find((r) => roleCovers(owner, r) && roleCovers(token, r)) ?? 'viewer';
}

function toPerson(r: store.PersonRow): Person {
  return {
    name: r.name,
    role: isRole(r.role) ? r.role : 'viewer',
    disabled: r.disabled_at !== null,
    createdAt: new Date(r.created_at).toISOString(),
    password: r.password !== NO_PASSWORD,
    oidc: r.oidc_issuer !== null && r.oidc_subject !== null ? { issuer: r.oidc_issuer, subject: r.oidc_subject } : null,
  };
}
const MAX_OIDC_TEXT = 255;
/** What is wrong with a link an owner types, or null. The issuer is kept as typed: the provider's `iss` is compared with it exactly. */
function linkProblem(link: OidcLink): string | null {
  if (!link.subject || link.subject.length > MAX_OIDC_TEXT || unsafeChars(link.subject))
    return `A subject is the provider's "sub" for the person: 1 to ${MAX_OIDC_TEXT} characters, no control or text-direction characters.`;
  let url: URL;
  try {
    url = new URL(link.issuer);
  } catch {
    return `The issuer is the provider's issuer URL (as its discovery document says, e.g. https://id.example.org), not "${link.issuer.slice(0, 60)}".`;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || link.issuer.length > MAX_OIDC_TEXT || url.search || url.hash)
    return `The issuer is the provider's issuer URL (https://…, no query), not "${link.issuer.slice(0, 60)}".`;
  return null;
}
const audited = (p: Person) => ({ name: p.name, role: p.role, disabled: p.disabled });
const linkText = (l: OidcLink): string => `${l.subject} at ${l.issuer}`;

export interface People {
  count(): number;
  list(): Person[];
  get(name: string): Person | null;
  /** `password` null: a person who signs in only through the provider (`link` needed then). */
  add(name: string, role: Role, password: string | null, now: number, link?: OidcLink): Promise<Person>;
  /** Links the person to an account at the provider (one person per account); replacing an earlier link ends their sessions. */
  linkOidc(name: string, link: OidcLink, now: number): Person;
  /** Ends the link and the person's sessions; refused for a person without a password (they would have no way in left). */
  unlinkOidc(name: string, now: number): Person;
  setRole(name: string, role: Role, now: number): Person;
  /** Disabled: no sign-in, every session ended and every token refused, at once. */
  disable(name: string, now: number): Person;
  enable(name: string, now: number): Person;
  /** A new password; the person's sessions end (whoever knew the old one is signed out). */
  resetPassword(name: string, password: string, now: number): Promise<void>;
  signIn(name: string, password: string, address: string, now: number): Promise<SignIn>;
  /**
   * A session for the person linked to this account at the provider, once the shell has verified
   * the provider's answer (openid-client: state, PKCE, the ID token's signature, issuer, audience
   * and nonce). Never makes a person. Recorded as a good sign-in from `address`, as a password's is.
   */
  oidcSignIn(link: OidcLink, address: string, now: number): OidcSignIn;
  /** The person of a session id still within both limits (and marks it seen), or null. */
  session(sessionId: string, now: number): SignedIn | null;
  /** Whether the session stored under `key` is still within both limits, without marking it seen (an open event stream is no activity). */
  alive(key: string, now: number): boolean;
  signOut(sessionId: string): void;
  /** Every session of the person ended; the keys of those ended (the shell closes their event streams). */
  signOutEverywhere(name: string): string[];
  /** A new API token, printed once: its role no higher than the owner's now. */
  createToken(name: string, role: Role, label: string, now: number): { token: string; id: number; role: Role };
  tokens(name: string): { id: number; role: Role; label: string; createdAt: string; lastUsedAt: string | null }[];
  /** Ends one of a person's API tokens, recorded in the audit trail as a token's making is; false when they have no such token. */
  revokeToken(name: string, id: number, now?: number): boolean;
  /** The token itself revoked by whoever holds it (a desktop signing out of a team server); false when it is unknown. */
  revokeOwnToken(token: string, now?: number): boolean;
  /**
   * Who a bearer token acts as now: its role capped by its owner's current one; null for an
   * unknown token or a disabled owner. `key`: the token as stored (its hash), for `tokenAlive`.
   */
  tokenActor(token: string, now: number): (Actor & { key: string }) | null;
  /** Whether the token stored under `key` still acts (not revoked, its owner not disabled): an open event stream's check. */
  tokenAlive(key: string): boolean;
}

/**
 * The people go with the data folder, not with a backup or a service's cache file (session.ts
 * `CacheKeeper`): a restore, or connecting another service, keeps who may sign in, their sessions,
 * tokens and lock-outs as they are now. Without it, last week's backup would bring back a person
 * disabled or a token revoked since, and another service's cache its own people (or none).
 */
export const peopleKeeper = {
  take: (db: ReadableDB): store.PeopleTables => store.readPeopleTables(db),
  put: (db: WritableDB, taken: unknown): void => {
    // Nothing to write when they are the same already (a desktop's: nobody in either): a cache
    // opened read-only takes the switch too.
    if (JSON.stringify(store.readPeopleTables(db)) === JSON.stringify(taken)) return;
    db.transaction(() => store.replacePeopleTables(db, taken as store.PeopleTables))();
  },
};

/** The people over the cache open now (`db()`: the session's, which changes with it). */
export function peopleOf(db: () => WritableDB, author: EditAuthor): People {
  const person = (name: string): store.PersonRow => {
    const row = store.personRow(db(), name);
    if (!row) throw new PeopleError(`There is no person named "${name.slice(0, 64)}".`);
    return row;
  };
  /** An edit of a person, recorded in the audit trail with its before and after (never a password or hash). */
  const edit = <T>(op: string, now: number, fn: () => T): T =>
    withAuditOrigin(
      op,
      () => db().transaction(fn).immediate(),
      () => now,
      author,
    );
  const change = (op: string, name: string, now: number, apply: (row: store.PersonRow) => void): Person =>
    edit(op, now, () => {
      const before = toPerson(person(name));
      apply(person(name));
      const after = toPerson(person(name));
      recordEdit(db(), { entity: 'person', key: before.name, action: 'update', before: audited(before), after: audited(after) });
      return after;
    });

  return {
    count: () => store.countPeople(db()),
    list: () => store.personRows(db()).map(toPerson),
    get: (name) => {
      const row = store.personRow(db(), name);
      return row ? toPerson(row) : null;
    },

    async add(name, role, password, now, link) {
      if (!NAME.test(name)) throw new PeopleError('A name is 1 to 64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit.');
      if (password === null && !link) throw new PeopleError('A person needs a password, or a link to the provider (--oidc-subject).');
      const problem = password === null ? null : passwordProblem(password);
      if (problem) throw new PeopleError(problem);
      const linkWrong = link ? linkProblem(link) : null;
      if (linkWrong) throw new PeopleError(linkWrong);
      if (store.personRow(db(), name)) throw new PeopleError(`There is already a person named "${name}".`);
      const hash = password === null ? NO_PASSWORD : await hashPassword(password);
      return edit('users.add', now, () => {
        if (store.personRow(db(), name)) throw new PeopleError(`There is already a person named "${name}".`);
        if (link) linkFree(link, name);
        store.insertPerson(db(), { name, role, password: hash, at: now });
        if (link) store.updateOidc(db(), name, link);
        const added = toPerson(person(name));
        recordEdit(db(), { entity: 'person', key: name, action: 'create', before: null, after: { ...audited(added), ...(link && { oidc: linkText(link) }) } });
        return added;
      });
    },

    linkOidc(name, link, now) {
      const wrong = linkProblem(link);
      if (wrong) throw new PeopleError(wrong);
      return edit('users.link-oidc', now, () => {
        const row = person(name);
        linkFree(link, row.name);
        const before = toPerson(row).oidc;
        store.updateOidc(db(), row.name, link);
        // Another account in place of one: whoever holds the old one is signed out.
        if (before && (before.issuer !== link.issuer || before.subject !== link.subject)) store.deleteSessionsOf(db(), row.name);
        recordEdit(db(), { entity: 'person', key: row.name, action: 'update', before: { oidc: before && linkText(before) }, after: { oidc: linkText(link) } });
        return toPerson(person(row.name));
      });
    },

    unlinkOidc(name, now) {
      return edit('users.unlink-oidc', now, () => {
        const row = person(name);
        const before = toPerson(row);
        if (!before.oidc) throw new PeopleError(`${row.name} is not linked to a provider's account.`);
        if (!before.password)
          throw new PeopleError(`${row.name} has no password: the link is their only way in. Give them one first (users reset-password), or disable them.`);
        store.updateOidc(db(), row.name, null);
        // Unlinked (an account lost, say): whoever signed in through it is signed out.
        store.deleteSessionsOf(db(), row.name);
        recordEdit(db(), { entity: 'person', key: row.name, action: 'update', before: { oidc: linkText(before.oidc) }, after: { oidc: null } });
        return toPerson(person(row.name));
      });
    },

    setRole(name, role, now) {
      return change('users.role', name, now, (row) => {
        // The last owner keeps the server administrable: someone must be able to add people.
        if (row.role === 'owner' && role !== 'owner' && row.disabled_at === null && activeOwners() === 1)
          throw new PeopleError(`${row.name} is the only owner: make another person owner first.`);
        store.updateRole(db(), row.name, role);
      });
    },

    disable(name, now) {
      return change('users.disable', name, now, (row) => {
        if (row.role === 'owner' && row.disabled_at === null && activeOwners() === 1)
          throw new PeopleError(`${row.name} is the only owner: make another person owner first.`);
        store.updateDisabled(db(), row.name, row.disabled_at ?? now);
        store.deleteSessionsOf(db(), row.name);
      });
    },

    enable(name, now) {
      return change('users.enable', name, now, (row) => store.updateDisabled(db(), row.name, null));
    },

    async resetPassword(name, password, now) {
      const problem = passwordProblem(password);
      if (problem) throw new PeopleError(problem);
      person(name);
      const hash = await hashPassword(password);
      edit('users.reset-password', now, () => {
        const row = person(name);
        store.updatePassword(db(), row.name, hash, now);
        store.deleteSessionsOf(db(), row.name);
        // Recorded without the password: that it changed, and when.
        recordEdit(db(), { entity: 'person', key: row.name, action: 'update', before: { password: 'old' }, after: { password: 'new' } });
      });
    },

    async signIn(name, password, address, now) {
      const locked = lockedUntil(name, address, now);
      // Locked: the password is not even checked, so guessing on pays nothing and learns nothing.
      if (locked !== null) return { ok: false, reason: 'locked', until: locked };
      const row = name.length <= 64 ? store.personRow(db(), name) : undefined;
      // Counted as a failure before the password is checked (in the same turn as the lock's
      // reading, with no await between): guesses sent all at once would otherwise all read the
      // lock open and all be checked (scrypt takes a tenth of a second each), however many.
      const w = db();
      const attempt = w.transaction(() => {
        store.deleteAttemptsBefore(w, now - 24 * 60 * 60_000);
        return store.insertAttempt(w, { name: name.slice(0, 64), address, at: now, ok: false });
      })();
      // A person without a password (linked only to the provider) is checked as an unknown name:
      // against the dummy hash, so the answer and its time are a wrong password's.
      const stored = row && row.password !== NO_PASSWORD ? row.password : await dummyHash();
      const right = (await verifyPassword(password, stored)) && row?.password !== NO_PASSWORD;
      if (!row || !right) return { ok: false, reason: 'wrong' };
      // Said only to whoever knows the password: a disabled person's is no way in (nor a failure).
      if (row.disabled_at !== null) {
        store.deleteAttempt(w, attempt);
        return { ok: false, reason: 'disabled' };
      }
      const sessionId = startSession(row.name, now, () => store.markAttemptGood(w, attempt));
      return { ok: true, sessionId, person: row.name, role: toPerson(row).role };
    },

    oidcSignIn(link, address, now) {
      const row = link.subject.length <= MAX_OIDC_TEXT ? store.personByOidc(db(), link.issuer, link.subject) : undefined;
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.disabled_at !== null) return { ok: false, reason: 'disabled' };
      // Recorded as a good sign-in by the person's name, as a password's is (the trail of who
      // signed in, from where, when); it also starts their password's failure count again.
      const sessionId = startSession(row.name, now, () => store.insertAttempt(db(), { name: row.name, address, at: now, ok: true }));
      return { ok: true, sessionId, person: row.name, role: toPerson(row).role };
    },

    session(sessionId, now) {
      if (!sessionId || sessionId.length > 100) return null;
      const key = hashSecret(sessionId);
      const s = store.sessionRow(db(), key);
      if (!s) return null;
      const row = store.personRow(db(), s.person);
      // Either limit passed (or the clock went back past its start), or the person disabled: it ends now.
      if (!row || row.disabled_at !== null || now - s.created_at >= ABSOLUTE_LIMIT_MS || now - s.last_seen >= IDLE_LIMIT_MS || now < s.created_at) {
        store.deleteSession(db(), key);
        return null;
      }
      // Written at most once a minute: a write per request would make every request change the
      // cache, and every kept portfolio view be built again (portfolio/memo.ts reads the file's
      // version). The idle limit is then met up to a minute early, never late.
      if (now - s.last_seen >= TOUCH_EVERY_MS) store.touchSession(db(), key, now);
      return { person: row.name, role: toPerson(row).role, key, csrf: csrfOf(sessionId) };
    },

    alive(key, now) {
      const s = store.sessionRow(db(), key);
      const row = s && store.personRow(db(), s.person);
      return !!s && !!row && row.disabled_at === null && now - s.created_at < ABSOLUTE_LIMIT_MS && now - s.last_seen < IDLE_LIMIT_MS && now >= s.created_at;
    },

    signOut(sessionId) {
      store.deleteSession(db(), hashSecret(sessionId));
    },

    signOutEverywhere(name) {
      return store.deleteSessionsOf(db(), name);
    },

    createToken(name, role, label, now) {
      const owner = person(name);
      if (owner.disabled_at !== null) throw new PeopleError(`${owner.name} is disabled.`);
      const ownerRole = toPerson(owner).role;
      if (!roleCovers(ownerRole, role))
        throw new PeopleError(`A token's role is no higher than its owner's: ${owner.name} is ${ownerRole}, which does not cover ${role}.`);
      if (store.tokenRows(db(), owner.name).length >= MAX_TOKENS_PER_PERSON)
        throw new TooManyTokensError(
          `${owner.name} has ${MAX_TOKENS_PER_PERSON} API tokens, the most a person may have: revoke one they no longer use (folioscope users tokens ${owner.name}, then users revoke-token) before making another.`,
        );
      const token = `fst_${randomBytes(32).toString('base64url')}`;
      const id = edit('users.token', now, () => {
        const made = store.insertToken(db(), { tokenHash: hashSecret(token), person: owner.name, role, label: label.slice(0, 100), at: now });
        recordEdit(db(), { entity: 'api-token', key: `${owner.name}#${made}`, action: 'create', before: null, after: { person: owner.name, role, label } });
        return made;
      });
      return { token, id, role };
    },

    tokens(name) {
      return store.tokenRows(db(), person(name).name).map((t) => ({
        id: t.id,
        role: isRole(t.role) ? t.role : 'viewer',
        label: t.label,
        createdAt: new Date(t.created_at).toISOString(),
        lastUsedAt: t.last_used_at === null ? null : new Date(t.last_used_at).toISOString(),
      }));
    },

    revokeToken(name, id, now = Date.now()) {
      const owner = person(name).name;
      return edit('users.revoke-token', now, () => {
        const t = store.tokenRows(db(), owner).find((r) => r.id === id);
        if (!t || !store.deleteToken(db(), owner, id)) return false;
        recordEdit(db(), {
          entity: 'api-token',
          key: `${owner}#${id}`,
          action: 'delete',
          before: { person: owner, role: t.role, label: t.label },
          after: null,
        });
        return true;
      });
    },

    revokeOwnToken(token, now = Date.now()) {
      if (!token.startsWith('fst_') || token.length > 100) return false;
      const t = store.tokenRow(db(), hashSecret(token));
      // Recorded in the audit trail as an owner's revoking is.
      return t ? this.revokeToken(t.person, t.id, now) : false;
    },

    tokenActor(token, now) {
      if (!token.startsWith('fst_') || token.length > 100) return null;
      const t = store.tokenRow(db(), hashSecret(token));
      if (!t) return null;
      const owner = store.personRow(db(), t.person);
      if (!owner || owner.disabled_at !== null || !isRole(t.role)) return null;
      // At most once a minute, as a session's (above).
      if (t.last_used_at === null || now - t.last_used_at >= TOUCH_EVERY_MS) store.touchToken(db(), t.id, now);
      return { person: owner.name, role: cappedRole(toPerson(owner).role, t.role), key: t.token_hash };
    },

    tokenAlive(key) {
      const t = store.tokenRow(db(), key);
      const owner = t && store.personRow(db(), t.person);
      return !!owner && owner.disabled_at === null;
    },
  };

  /** A new session for `name` (with `also` in the same transaction); its id, returned once. */
  function startSession(name: string, now: number, also: () => void): string {
    const sessionId = randomBytes(32).toString('base64url');
    const w = db();
    w.transaction(() => {
      also();
      store.deleteStaleSessions(w, { createdBefore: now - ABSOLUTE_LIMIT_MS, seenBefore: now - IDLE_LIMIT_MS });
      store.deleteSessionsBeyond(w, name, MAX_SESSIONS_PER_PERSON - 1);
      store.insertSession(w, { idHash: hashSecret(sessionId), person: name, at: now });
    })();
    return sessionId;
  }

  /** Refuses a link whose account is already someone else's (one account, one person). */
  function linkFree(link: OidcLink, name: string): void {
    const holder = store.personByOidc(db(), link.issuer, link.subject);
    if (holder && holder.name.toLowerCase() !== name.toLowerCase())
      throw new PeopleError(`That account is already linked to ${holder.name}: unlink it there first.`);
  }

  function activeOwners(): number {
    return store.personRows(db()).filter((r) => r.role === 'owner' && r.disabled_at === null).length;
  }

  /** When a lock on this name or address ends, or null when neither is locked. */
  function lockedUntil(name: string, address: string, now: number): number | null {
    const since = now - LOCK_WINDOW_MS;
    const byName = store.failuresOfName(db(), name.slice(0, 64), since);
    const byAddress = store.failuresOfAddress(db(), address, since);
    const ends = [
      byName.length >= NAME_FAILURES ? byName[0]! + LOCK_WINDOW_MS : null,
      byAddress.length >= ADDRESS_FAILURES ? byAddress[0]! + LOCK_WINDOW_MS : null,
    ].filter((t): t is number => t !== null && t > now);
    return ends.length ? Math.max(...ends) : null;
  }
}
