import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/main/core/service/client.ts';
import { jsonHoldsSecret, redactJson, redactText } from '../../src/main/core/service/redact.ts';
import { transactionHistory } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';

/**
 * parseEnvelope skips the walk over the parsed value when the body holds no escape and no form
 * of the key (a parsed string is then a substring of the body). Every way a key can hide in
 * JSON text must still be scrubbed, and the fast path must give what the walk gives.
 */
const KEY = 'k3y/With"Odd\\chars-9f8e';
const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const redact = (text: string) => redactText(text, KEY);

function page(note: string | null): { body: string; rows: unknown[] } {
  const h = historyOf({ seed: 5, txnsPerWallet: 50, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 }, WALLET, CHAINS[0]!);
  const rows: Array<Record<string, unknown>> = Array.from({ length: 50 }, (_, i) => transactionAt(h, i) as unknown as Record<string, unknown>);
  const data = [{ transaction_history: rows, start_block: 1, end_block: 2, completion_ratio: 1 }];
  const body = JSON.stringify({ status: 'OK', message: 'fine', data });
  return { body: note === null ? body : body.replace('"message":"fine"', `"message":"fine","echo":"${note}"`).replace('"fine"', `"${note}"`), rows };
}

const parse = (body: string) => parseEnvelope('transactionsByWallet', transactionHistory, body, 'http://x/', '2026-01-01T00:00:00.000Z', 1, redact);

describe('envelope redaction', () => {
  it('a clean body parses to exactly what the full walk gives', () => {
    const { body } = page(null);
    expect(body).not.toContain('\\');
    const fast = parse(body);
    const walked = transactionHistory.array().parse((redactJson(JSON.parse(body), redact) as { data: unknown[] }).data);
    expect(fast.data).toEqual(walked);
    expect(fast.data[0]!.transaction_history).toHaveLength(50);
    expect(fast.body).toBe(body);
  });

  // The key as JSON text can spell it: escaped quotes and backslashes, \/ for /, \u escapes.
  // The stored raw body is scrubbed as text (redactText); a spelling the text scrub does not
  // know (\\/, \\u escapes) makes the stored body the scrubbed parse instead.
  const spellings: Array<[string, string]> = [
    ['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
    ['with \\/ for /', JSON.stringify(KEY).slice(1, -1).replace('/', '\\/')],
    ['in \\u escapes', [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['URL-encoded', encodeURIComponent(KEY)],
  ];
  for (const [name, spelled] of spellings) {
    it(`a key echoed ${name} reaches neither the parsed data nor the stored body`, () => {
      const res = parse(page(`you sent ${spelled}`).body);
      expect(JSON.stringify(res.data)).not.toContain(KEY);
      expect(res.message).not.toContain(KEY);
      expect(res.message).toContain('REDACTED');
      // No string the stored body decodes to holds the key, whatever its spelling in the text.
      expect(jsonHoldsSecret(JSON.parse(res.body), redact)).toBe(false);
      expect(res.body).not.toContain(KEY);
      // What is stored is still the whole response: the same rows parse from it.
      expect(transactionHistory.array().parse((JSON.parse(res.body) as { data: unknown[] }).data)).toEqual(res.data);
    });
  }
});
