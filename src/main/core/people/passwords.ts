/**
 * Passwords of a team server's people: node:crypto's scrypt with a salt of its own per password
 * (never hand-rolled: the derivation is OpenSSL's), compared in constant time. What is stored
 * names its costs (`scrypt$N$r$p$salt$hash`), so the costs can rise later and old hashes still
 * verify; costs read back are checked against the bounds this app can run (shared/scrypt-params.ts)
 * before any work, so a planted row cannot ask for gigabytes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { scryptCosts } from '../../../shared/scrypt-params.ts';

/** At least this many characters: a passphrase, not a PIN (docs/team.md). */
export const MIN_PASSWORD_LENGTH = 12;
/** At most: scrypt takes any length, but a megabyte "password" is a denial of service, not a secret. */
export const MAX_PASSWORD_LENGTH = 1024;

/** 2^15 × 8 × 128 bytes = 32 MiB and about a tenth of a second per sign-in on this machine (OWASP's floor for scrypt). */
const COSTS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const costsSchema = z.object(scryptCosts);

function derive(password: string, salt: Buffer, costs: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...costs, maxmem: 256 * costs.N * costs.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** What is wrong with a new password, or null when it may be used. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COSTS);
  return ['scrypt', COSTS.N, COSTS.r, COSTS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Whether `password` is the one `stored` was made from; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined || password.length > MAX_PASSWORD_LENGTH) return false;
  const costs = costsSchema.safeParse({ N: Number(n), r: Number(r), p: Number(p) });
  if (!costs.success) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const got = await derive(password, Buffer.from(salt, 'base64'), costs.data);
  return timingSafeEqual(got, expected);
}

let dummy: Promise<string> | null = null;
/**
 * A hash no password matches, verified against for a name that does not exist, so a wrong name
 * takes as long as a wrong password and the timing does not tell which names are people.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString('base64'));
  return dummy;
}
