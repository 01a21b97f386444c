import { plainDecimal } from '../../../shared/decimal.ts';
import { csvCell, csvText, needsCsvWork } from './csv.ts';

/**
 * The transfer cells of a transactions export (direction, token symbol, token contract,
 * quantity), read straight from the JSON text the store keeps for each transaction's
 * transfers, without JSON.parse and without turning each quantity into a double and back to
 * text: those two were a third of a million-row export's time (bench/reports.ts).
 *
 * The result is the same text as `csvCell` of what JSON.parse gives, by construction:
 * - a string without a backslash escape is, in JSON, exactly its own characters;
 * - a number written in plain notation with at most 15 significant digits (no exponent, no
 *   leading or trailing zeros) is exactly what plainDecimal writes for the double it reads
 *   as: any decimal of ≤ 15 digits survives the trip to a double and back (DBL_DIG), and
 *   plainDecimal writes the shortest digits that do;
 * - anything else (an exponent, 16–17 digits, a string escape) goes through Number() or
 *   JSON.parse and csvCell as before, and any text that is not the flat array of flat objects
 *   the store writes (nested values, whitespace, invalid JSON) returns -1: the caller then
 *   uses JSON.parse on the whole text, which also throws on what JSON.parse refuses.
 * test/reports/csv-transfers.test.ts compares the two on awkward and random inputs.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const MINUS = 45;
const [OTHER, TYPE, SYMBOL, TOKEN_CID, QTY] = [0, 1, 2, 3, 4];

/** JSON's number grammar. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Plain notation as plainDecimal writes it: no exponent, no leading zeros, no trailing fraction zeros. */
const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
const RAW_CONTROL = /[\u0000-\u001f]/;

/** The CSV cell of a JSON number's text: the text itself when that is provably plainDecimal's. */
export function numberCell(raw: string): string | null {
  if (raw.length <= 25 && PLAIN.test(raw) && raw !== '-0' && significantDigits(raw) <= 15) return raw;
  if (!JSON_NUMBER.test(raw)) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? plainDecimal(n) : '';
}

function significantDigits(raw: string): number {
  let digits = 0;
  let leading = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) continue; // the sign, the point
    if (leading && c === 48) continue;
    leading = false;
    digits++;
  }
  return digits;
}

/** The CSV cell of a JSON string's content (between the quotes); null when it needs JSON.parse. */
function stringCell(raw: string): string | null {
  // A backslash starts an escape (and an escaped quote would have ended the slice early).
  if (raw.indexOf('\\') >= 0) return null;
  if (!needsCsvWork(raw)) return raw;
  return RAW_CONTROL.test(raw) ? null : csvText(raw);
}

/**
 * Writes into `out` one string per transfer: `direction,symbol,token_cid,qty`, each cell as
 * csvCell writes it. Returns how many, or -1 when the text must be read with JSON.parse.
 */
export function transferCells(json: string, out: string[]): number {
  const n = json.length;
  if (json.charCodeAt(0) !== OPEN_ARRAY) return -1;
  let i = 1;
  if (json.charCodeAt(i) === CLOSE_ARRAY) return i + 1 === n ? 0 : -1;
  let count = 0;
  for (;;) {
    if (json.charCodeAt(i) !== OPEN_OBJECT) return -1;
    i++;
    let type = '';
    let symbol = '';
    let cid = '';
    let qty = '';
    if (json.charCodeAt(i) === CLOSE_OBJECT) i++;
    else
      for (;;) {
        // The member's name: the four exported ones matched in place (no string made per name).
        let member = OTHER;
        if (json.startsWith('"qty":', i)) {
          member = QTY;
          i += 6;
        } else if (json.startsWith('"type":', i)) {
          member = TYPE;
          i += 7;
        } else if (json.startsWith('"symbol":', i)) {
          member = SYMBOL;
          i += 9;
        } else if (json.startsWith('"token_cid":', i)) {
          member = TOKEN_CID;
          i += 12;
        } else {
          if (json.charCodeAt(i) !== QUOTE) return -1;
          let j = i + 1;
          for (; j < n; j++) {
            const k = json.charCodeAt(j);
            if (k === QUOTE) break;
            if (k === BACKSLASH || k < 32) return -1; // an escape, or not JSON
          }
          if (json.charCodeAt(j + 1) !== COLON) return -1;
          i = j + 2;
        }
        const c = json.charCodeAt(i);
        let cell: string | null;
        if (c === QUOTE) {
          const end = json.indexOf('"', i + 1);
          if (end < 0) return -1;
          cell = stringCell(json.slice(i + 1, end));
          i = end + 1;
        } else if (c === MINUS || (c >= 48 && c <= 57)) {
          let j = i + 1;
          for (; j < n; j++) {
            const d = json.charCodeAt(j);
            // Digits, point, exponent and its sign: the grammar is checked on the slice.
            if (!((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === MINUS)) break;
          }
          cell = numberCell(json.slice(i, j));
          i = j;
        } else if (json.startsWith('null', i)) {
          cell = '';
          i += 4;
        } else if (json.startsWith('true', i)) {
          cell = 'true';
          i += 4;
        } else if (json.startsWith('false', i)) {
          cell = 'false';
          i += 5;
        } else return -1; // a nested object or array, whitespace, or not JSON
        if (cell === null) return -1;
        // As JSON.parse, a member given twice counts with its last value.
        if (member === TYPE) type = cell;
        else if (member === SYMBOL) symbol = cell;
        else if (member === TOKEN_CID) cid = cell;
        else if (member === QTY) qty = cell;
        const d = json.charCodeAt(i++);
        if (d === COMMA) continue;
        if (d === CLOSE_OBJECT) break;
        return -1;
      }
    out[count++] = `${type},${symbol},${cid},${qty}`;
    const d = json.charCodeAt(i++);
    if (d === COMMA) continue;
    if (d === CLOSE_ARRAY && i === n) return count;
    return -1;
  }
}

/** The same cells through JSON.parse: the reference, and the way for any text the scan declines. */
export function parsedTransferCells(json: string, out: string[]): number {
  const transfers = JSON.parse(json) as Array<{ type: string | null; symbol: string | null; token_cid: string | null; qty: number | null }>;
  for (let i = 0; i < transfers.length; i++) {
    const d = transfers[i]!;
    out[i] = `${csvCell(d.type)},${csvCell(d.symbol)},${csvCell(d.token_cid)},${csvCell(d.qty)}`;
  }
  return transfers.length;
}
