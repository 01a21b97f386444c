/**
 * `folioscope verify-bundle FILE`: checks a closed period's auditor's bundle from the file alone
 * (docs/closes.md, "The auditor's bundle"): no cache is opened, no service asked, nothing read
 * from the network. An auditor runs it on a machine that has never seen the books.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { verifyCloseBundle } from '../../core/index.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { type Globals, parse, UsageError } from '../context.ts';
import { say, setExitCode } from '../io.ts';

export const VERIFY_BUNDLE_USAGE = `Usage: folioscope verify-bundle FILE [--hash SHA256] [--json]
Checks a closed period's auditor's bundle (folioscope close bundle ID --out FILE) from the file
alone, with no cache and no network: each hashed part's SHA-256 from its text, the period's hash
from those, each service response against the content the close hashed, and every document
against the bundle's manifest. --hash: the close's hash as you were given it (printed on the
pack's PDF), which the bundle's must equal. Exit codes: 0 the bundle checks out, 1 it differs
(each difference named) or cannot be read, 2 usage error.`;

export async function verifyBundleCommand(_g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { hash: { type: 'string' }, json: { type: 'boolean' } }, VERIFY_BUNDLE_USAGE);
  if (!p) return;
  if (p.positionals.length !== 1) throw new UsageError(VERIFY_BUNDLE_USAGE);
  if (p.values.hash !== undefined && !/^[0-9a-fA-F]{64}$/.test(p.values.hash))
    throw new UsageError(`--hash must be a SHA-256: 64 hexadecimal digits.\n\n${VERIFY_BUNDLE_USAGE}`);
  const file = resolvePath(p.positionals[0]!);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new Error(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (err as Error).message}.`, {
      cause: err,
    });
  }
  const check = verifyCloseBundle(bytes, p.values.hash);
  if (!check.ok) setExitCode(1);
  if (p.values.json) {
    say(jsonForTerminal(check));
    return;
  }
  const c = check.close;
  say(forTerminal(`Close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to}; closed ${c.closedAt}${c.closedBy ? ` by ${c.closedBy}` : ''}.`));
  if (c.preparedAt)
    say(
      forTerminal(
        `Prepared ${c.preparedAt}${c.preparedBy ? ` by ${c.preparedBy}` : ''}${c.samePerson ? '; prepared and approved by the same person' : `; approved by ${c.approvedBy ?? 'nobody named'}`}.`,
      ),
    );
  say(forTerminal(`The close's hash: ${c.hash}${p.values.hash === undefined ? ' (compare it with the one you were given, or pass --hash)' : ''}`));
  say(`Checked ${check.checked.parts} parts, ${check.checked.snapshots} service responses and ${check.checked.files} files.`);
  if (check.ok) say('OK: the bundle is the data its close hashed.');
  else {
    say(`DIFFERS: ${check.findings.length} finding${check.findings.length === 1 ? '' : 's'}:`);
    for (const f of check.findings) say(forTerminal(`  - ${f}`));
  }
}
