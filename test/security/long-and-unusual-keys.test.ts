import Database from 'better-sqlite3-multiple-ciphers';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/main/core/service/redact.ts';
import { MAX_KEY_LENGTH, Secrets } from '../../src/main/core/secrets/secrets.ts';
import { runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

/**
 * Finding (attack round, issue 26): a key of about 2,000 characters or more made the redaction
 * pattern too large to compile; the compiler's error, which spells the pattern out (the whole
 * key), was printed by `sync` and `doctor --json` and stored in the cache. A key that is not
 * ASCII could be echoed in spellings no pattern knows (NFD, its UTF-8 read as Latin-1).
 */
const key = (n: number, seed = 7) => Array.from({ length: n }, (_, i) => String.fromCharCode(0x21 + ((i * 31 + seed) % 94))).join('');
const LONGEST = key(MAX_KEY_LENGTH, 3);
const sim = useSimProcess(['--access-key', LONGEST, '--txns-per-wallet', '50']);

/** Whether any 16 characters of the key stand in the text, as they are. */
const holdsPiece = (text: string, k: string) => {
  for (let i = 0; i + 16 <= k.length; i += 8) if (text.includes(k.slice(i, i + 16))) return true;
  return false;
};

describe('keys too long or not ASCII', () => {
  it('a key whose pattern cannot compile never leaks through redaction: the text is withheld', () => {
    const huge = key(4000);
    const text = `{"message":"bad key ${huge}"}`;
    let out = '';
    expect(() => (out = redactText(text, huge))).not.toThrow();
    expect(holdsPiece(out, huge)).toBe(false);
    const euros = '€'.repeat(800);
    expect(holdsPiece(redactText(`x${euros}y`, euros), euros)).toBe(false);
  });

  it('is refused where it enters, saying the rule; the longest allowed key and punctuation keys are taken', () => {
    expect(() => Secrets.checkFormat(key(MAX_KEY_LENGTH + 1))).toThrow(new RegExp(`at most ${MAX_KEY_LENGTH}`));
    expect(() => Secrets.checkFormat('Ké%+&#"\'/ü-A1b2C3d4=x?<>')).toThrow(/letters, digits and ASCII punctuation/);
    expect(() => Secrets.checkFormat('key\u0000with-a-nul-000')).toThrow(/letters, digits and ASCII punctuation/);
    expect(Secrets.checkFormat(LONGEST)).toBe(LONGEST);
    expect(Secrets.checkFormat('tk~Q7(v)9!5e1f&#%+=/?<>')).toBe('tk~Q7(v)9!5e1f&#%+=/?<>');
  });

  it(
    'the CLI as cron runs it: a 4,000-character key fails the sync saying so, nowhere spelled out; the longest allowed key syncs',
    { timeout: 120_000 },
    async () => {
      const huge = key(4000);
      const dir = tempDir();
      const g = ['--data-dir', dir, '--base-url', sim.url];
      expect((await runCli([...g, 'wallet', 'add', '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', '--chains', 'eth'])).status).toBe(0);
      const bad = await runCli([...g, 'sync', '--no-positions'], { FOLIOSCOPE_ACCESS_KEY: huge });
      expect(bad.status).not.toBe(0);
      expect(bad.stdout + bad.stderr).toMatch(new RegExp(`at most ${MAX_KEY_LENGTH}`));
      const doctor = await runCli([...g, 'doctor', '--json'], { FOLIOSCOPE_ACCESS_KEY: huge });
      for (const text of [bad.stdout, bad.stderr, doctor.stdout, doctor.stderr]) expect(holdsPiece(text, huge)).toBe(false);
      for (const f of readdirSync(dir).filter((n) => n.includes('.sqlite'))) expect(holdsPiece(readFileSync(join(dir, f), 'latin1'), huge)).toBe(false);

      const ok = await runCli([...g, 'sync', '--no-positions'], { FOLIOSCOPE_ACCESS_KEY: LONGEST });
      expect(ok.status, ok.stdout + ok.stderr).toBe(0);
      const file = readdirSync(dir).find((n) => n.endsWith('.sqlite'))!;
      const db = new Database(join(dir, file), { readonly: true });
      expect((db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n).toBe(50);
      db.close();
    },
  );
});
