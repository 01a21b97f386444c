import type { ServiceCheck } from '../../../shared/model.ts';
import { forTerminal } from '../../../shared/text-safety.ts';
import { LIMITS } from '../../../shared/contract.ts';
import { jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { io, say, setExitCode } from '../io.ts';

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

export async function doctorCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { cached: { type: 'boolean' }, json: { type: 'boolean' }, 'recent-window': { type: 'string' } }, DOCTOR_USAGE);
  if (!p) return;
  const widthArg = p.values['recent-window'];
  // Hours, or `auto` (the default widened by what is learned): checked before anything is written.
  if (widthArg !== undefined && widthArg !== 'auto' && !(/^\d{1,4}$/.test(widthArg) && +widthArg >= 1 && +widthArg <= LIMITS.recentWindowHours)) {
    const shown = forTerminal(widthArg.slice(0, 40));
    const most = LIMITS.recentWindowHours.toLocaleString('en-US');
    // A number past the limit (1e308, Infinity) is too wide, which says more than "not a width".
    const tooWide = widthArg.trim() !== '' && Number(widthArg) > LIMITS.recentWindowHours;
    throw new UsageError(
      `--recent-window ${shown} is ${tooWide ? `too wide: the recent window is at most ${most} hours;` : 'not a width:'} use whole hours from 1 to ${most}, or auto.\n\n${DOCTOR_USAGE}`,
    );
  }
  const check = await withCore(g, async (core) => {
    if (widthArg !== undefined) {
      await call(core, 'settings.update', { recentWindowHours: widthArg === 'auto' ? null : Number(widthArg) });
      // Said before the check, which may fail on its own (a service out of reach): the setting is kept either way.
      if (!p.values.json) say(`Recent window re-read: ${widthArg === 'auto' ? 'automatic' : `at least ${widthArg} hours`} for this service (saved).`);
    }
    return call(core, 'service.doctor', { run: !p.values.cached });
  });
  // The service's text is in the check: --json escapes what could steer a terminal, as every --json does.
  io().stdout.write(p.values.json ? jsonForTerminal(check) + '\n' : formatDoctor(check));
  if (check.items.some((i) => i.status === 'failed')) setExitCode(1);
}
