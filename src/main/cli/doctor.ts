import type { ServiceCheck } from '../../shared/model.ts';
import { forTerminal } from '../../shared/text-safety.ts';

/**
 * `folioscope doctor`: prints what was learned about the connected service (the same as
 * Settings shows) after running the checks again. Exit status: 0 when the service is usable
 * (warnings and notes are printed, not failures), 1 when a check failed.
 */
export const DOCTOR_USAGE = `Usage: folioscope doctor [--cached] [--json] [--recent-window HOURS|auto]
  Checks the connected service (or the demo service) with a few requests and prints what
  Folioscope learned: reachability, how datetimes and numbers are written, which day a
  snapshot is filed under, the conventions learned for paging and time ranges, and how much
  recent history every sync reads again.
  --cached   print the last check without running it again
  --json     print the check as JSON
  --recent-window HOURS|auto  read at least HOURS of recent history again on every transaction
             sync of this service (1 to 2160), or auto: 24 hours, widened when the service is
             seen restating older transactions; saved, then the check printed
Exit status: 0 usable (notes and warnings are printed), 1 a check failed, 2 usage error.`;

const MARK: Record<ServiceCheck['items'][number]['status'], string> = { ok: 'ok', note: 'note', warning: 'WARN', failed: 'FAIL' };

// Service text reaches a terminal: control and text-direction characters are shown visibly
// (shared/text-safety.ts) so they cannot move the cursor or reorder what follows.
const safe = forTerminal;

export function formatDoctor(check: ServiceCheck): string {
  const lines: string[] = [];
  lines.push(`Service: ${safe(check.baseUrl)}${check.mode === 'demo' ? ' (demo mode: the built-in reference service)' : ''}`);
  if (!check.checkedAt) {
    lines.push('Never checked. Run `folioscope doctor` to check it.');
    return lines.join('\n') + '\n';
  }
  lines.push(
    `Checked ${check.checkedAt.replace('T', ' ').slice(0, 19)} UTC with ${check.requests} requests${check.probe ? `, asking about ${check.probe.wallet} on ${safe(check.probe.chain)}` : ''}`,
  );
  lines.push('');
  const width = Math.max(...check.items.map((i) => i.label.length), 10);
  for (const item of check.items) {
    lines.push(`  ${MARK[item.status].padEnd(4)}  ${item.label.padEnd(width)}  ${safe(item.value)}`);
    if (item.detail) lines.push(`        ${' '.repeat(width)}  ${safe(item.detail)}`);
  }
  const failed = check.items.filter((i) => i.status === 'failed').length;
  const warnings = check.items.filter((i) => i.status === 'warning').length;
  lines.push('');
  lines.push(
    failed
      ? `${failed} check${failed === 1 ? '' : 's'} failed: the service is not usable as configured.`
      : warnings
        ? `Usable, with ${warnings} warning${warnings === 1 ? '' : 's'}.`
        : 'All checks passed.',
  );
  return lines.join('\n') + '\n';
}
