/**
 * The 8-byte key transactions are found by (migration 6): the first 16 hex digits of a
 * `0x…` hash as a blob, or, for any other hash (another chain family, digits that do not
 * decode), its first 16 characters as text. Order-preserving, so a hash prefix is a range of keys.
 *
 * It is an index expression, not a column: SQLite computes it for every insert, whoever
 * writes the row. It is not unique: callers compare the full hash too (see
 * upsertTransactions), so two hashes that share a key are never taken for one.
 *
 * Migrations 6, 7 and 10 hold their own copies of HASH_KEY and HASH_TAIL (a migration never
 * changes with the live code): changing either here needs a migration that rekeys the rows.
 */
export const HASH_KEY = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, 3, 16)) END, substr(txn_hash, 1, 16))";

/**
 * The hash's last 8 bytes, the second column of the lookup index (migration 7). The first 8
 * bytes alone are shared by every hash a service writes as a zero-padded counter
 * (`0x000…0001`, `0x000…0002`, …): each insert then compared its hash with every row of that
 * key, and ingest became quadratic (25,000 such rows took minutes). Such hashes differ at the end.
 */
export const HASH_TAIL = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, -16)) END, substr(txn_hash, -16))";

/** A hash whose key and tail are both 8-byte blobs: `0x` and at least 16 lower-case hex digits. */
const HEX_HASH = /^0x[0-9a-f]{16,}$/;

/**
 * HASH_KEY and HASH_TAIL computed here, for the common hash (HEX_HASH): its key and tail are
 * the bytes of its first and last 16 digits, written at `at` in `out` (16 bytes). False for
 * any other hash, whose key only SQL computes. Exactly what SQLite's expressions give for
 * such a hash: substr counts characters, which are bytes in ASCII, and unhex of 16 hex digits
 * is their 8 bytes (test/store/hash-key-bytes.test.ts compares the two).
 */
export function writeHashKey(hash: string, out: Buffer, at: number): boolean {
  if (!HEX_HASH.test(hash)) return false;
  out.write(hash.slice(2, 18), at, 'hex');
  out.write(hash.slice(-16), at + 8, 'hex');
  return true;
}

/** HASH_KEY over a table alias's column (`t.txn_hash`): the planner matches it to the index. */
export const hashKeyOf = (column: string) => HASH_KEY.replaceAll('txn_hash', column);

/** HASH_TAIL over another column or value (`j.value`). */
export const hashTailOf = (column: string) => HASH_TAIL.replaceAll('txn_hash', column);

/**
 * The key ranges holding every hash that starts with `prefix` (lower case). Blob keys sort
 * after text keys in SQLite, so the two never mix. A `0x` prefix can match both kinds (a hex
 * hash, or one whose digits do not decode), so it gets a range of each.
 */
export function hashKeyRanges(prefix: string): { blob: { lo: Buffer; hi: Buffer } | null; text: { lo: string; hi: string } } {
  const t = prefix.slice(0, 16);
  const text = { lo: t, hi: t.slice(0, -1) + String.fromCharCode(t.charCodeAt(t.length - 1) + 1) };
  const m = /^0x([0-9a-f]+)$/.exec(prefix);
  if (!m) return { blob: null, text };
  const digits = m[1]!.slice(0, 16);
  // Lowest: the digits themselves (a shorter blob sorts first); an odd count gets a 0 nibble.
  // Highest: padded with f to 8 bytes, the longest key there is.
  const lo = Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
  const hi = Buffer.from(digits.padEnd(16, 'f'), 'hex');
  return { blob: { lo, hi }, text };
}
