import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { SIM_NOW, WALLET as W } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope spam` as a user runs it, in demo mode: the lists (a bad file named by its line and
 * member, exit 1, nothing kept; a good one kept by its file's name, then removed), a verdict marked
 * and listed, a token and a synced transaction explained, the verdict cleared, the edits in the
 * audit trail. The commands run in this process (runCliHere, the entry the process runs, on the
 * simulator's clock); a refusal runs as a process of its own.
 */
const FAKE = '0x' + 'fa'.repeat(20);
const env = { FOLIOSCOPE_ACCESS_KEY: '' };
const now = () => SIM_NOW;

describe('folioscope spam', () => {
  it('imports lists all or nothing, marks and clears verdicts, explains a token and a transaction', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const run = (...args: string[]) => runCliHere(['--data-dir', dir, ...args], { env, now });

    let r = await run('spam', 'lists');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['name\tsource\timported\ttokens\taddresses\tpatterns', 'Folioscope defaults\tdefault\t\t5\t0\t8']);

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      `{\n  "version": 1,\n  "tokens": [\n    { "chain": "eth", "cid": "${FAKE}", "verdict": "spam" },\n    { "chain": "eth", "cid": "0x12", "verdict": "spam" }\n  ]\n}\n`,
    );
    r = await run('spam', 'lists', 'import', bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('folioscope: This spam list is not valid (line 5, tokens[1].cid: expected 0x and 40 hex digits). Nothing was imported.\n');
    expect(JSON.parse((await run('spam', 'lists', '--json')).stdout)).toHaveLength(1);

    const good = join(dir, 'team-list.json');
    writeFileSync(good, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: FAKE, verdict: 'spam', note: 'airdrop' }] }));
    r = await run('spam', 'lists', 'import', good);
    expect(r.stdout).toBe('Imported the list "team-list": 1 tokens, 0 addresses, 0 symbol patterns.\n');
    r = await run('spam', 'lists', '--json');
    expect((JSON.parse(r.stdout) as Array<{ name: string; importedAt: string }>)[0]).toMatchObject({
      name: 'team-list',
      importedAt: new Date(SIM_NOW).toISOString(),
    });

    expect((await run('wallet', 'add', W, '--chains', 'eth')).status).toBe(0);
    r = await run('spam', 'explain', '--wallet', W, '--chain', 'eth', '--token', FAKE);
    expect(r.stdout.split('\n')[0]).toBe(`Token (no symbol) ${FAKE} (eth): SPAM (score 0, decided by a list)`);
    expect(r.stdout).toContain('  *\tlist.spam\tThe list "team-list" calls the token spam: airdrop');

    r = await run('spam', 'mark', 'token', FAKE, '--chain', 'eth', '--not-spam', '--note', 'our test token');
    expect(r.stdout).toBe(`Marked the token ${FAKE} on eth not spam for every wallet.\n`);
    r = await run('spam', 'list');
    expect(r.stdout).toBe(`verdict\tkind\tchain\ttarget\twallet\tnote\nnot-spam\ttoken\teth\t${FAKE}\tevery wallet\tour test token\n`);
    r = await run('spam', 'explain', '--wallet', W, '--chain', 'eth', '--token', FAKE, '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: { spam: false, decidedBy: 'user', reasons: [{ code: 'user.not-spam' }] } });

    // Mistakes: a token without its chain, a chain on an address (usage, 2); a bad address (1).
    r = await run('spam', 'mark', 'token', FAKE);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('folioscope: A token is marked on its chain: --chain C (or use contract, for every chain).');
    expect((await run('spam', 'mark', 'address', FAKE, '--chain', 'eth')).status).toBe(2);
    expect((await run('spam', 'mark', 'wallet', FAKE)).status).toBe(2);
    r = await run('spam', 'explain', '--wallet', W, '--chain', 'eth');
    expect(r.status).toBe(2);

    // A synced transaction, explained.
    r = await run('sync', '--no-positions');
    expect(r.status).toBe(0);
    const db = openDatabase(join(dir, 'demo.sqlite'), { readonly: true });
    const hash = (db.prepare("SELECT txn_hash FROM transactions WHERE action_type = 'transfer_in' AND status = 1 LIMIT 1").get() as { txn_hash: string })
      .txn_hash;
    db.close();
    r = await run('spam', 'explain', '--wallet', W, '--chain', 'eth', '--txn', hash);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^Transaction ${hash} \\(eth\\): NOT SPAM \\(score -?\\d+, decided by the rules\\)$`));

    r = await run('spam', 'clear', 'token', FAKE, '--chain', 'eth');
    expect(r.stdout).toBe(`Cleared the verdict on the token ${FAKE}: the lists and the rules decide again.\n`);
    r = await run('spam', 'clear', 'token', FAKE, '--chain', 'eth');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/There is no verdict on the token .* for every wallet/);
    expect((await run('spam', 'lists', 'remove', 'team-list')).stdout).toBe('Removed the list "team-list".\n');
    expect((await run('spam', 'lists', 'remove', 'team-list')).status).toBe(1);

    r = await run('audit', '--json');
    const edits = (JSON.parse(r.stdout) as Array<{ entity: string; action: string; origin: string }>).filter((e) => e.entity.startsWith('spam'));
    expect(edits.map((e) => `${e.origin} ${e.entity} ${e.action}`).reverse()).toEqual([
      'spam.importList spam-list create',
      'spam.mark spam-verdict create',
      'spam.clear spam-verdict delete',
      'spam.removeList spam-list delete',
    ]);

    // As a process: the refusal's exit code and line on a real standard error.
    r = await runCli(['--data-dir', dir, 'spam', 'mark', 'address', '0x12'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Not an EVM address/);
    r = await runCli(['--data-dir', dir, 'spam', '--help'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: folioscope spam mark token CONTRACT --chain C/);
  });
});
