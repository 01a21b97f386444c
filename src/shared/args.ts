/**
 * The command line's arguments before node:util's parseArgs reads them. parseArgs takes an
 * argument that starts with a dash for the next option, so `--limit -1` failed as "--limit
 * takes no value" (or "needs a value") and never reached the option's own check, which says
 * what the value must be. A negative number after an option that takes a value is bound to it
 * (`--limit=-1`); anything after `--` is left as it is.
 */
export function bindNegativeValues(
  args: readonly string[],
  options: Readonly<Record<string, { type: 'string' | 'boolean'; short?: string | undefined }>>,
): string[] {
  const takesValue = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== 'string') continue;
    takesValue.set(`--${name}`, name);
    if (o.short) takesValue.set(`-${o.short}`, name);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    const name = takesValue.get(arg);
    const next = args[i + 1];
    if (name !== undefined && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** `-1`, `-0.5`, `-.5`, `-1e3`: what a person means as a number, not an option. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/** What parseArgs found wrong, in the words of every usage error (never its own: "Option '-x, --x <value>' argument missing"). */
export function argumentProblem(err: Error & { code?: string }, args: string[]): string {
  // "Option '-h, --help' does not take an argument": the long name, not "-h,".
  const quoted = /'(?:-[^-' ], )?(-[^' ]+)/.exec(err.message)?.[1];
  const option = quoted?.replace(/[ =].*$/, '') ?? args.find((a) => a.startsWith('-')) ?? '';
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option ${option}.`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(err.message) ? `${option} needs a value.` : `${option} takes no value.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument ${/'([^']+)'/.exec(err.message)?.[1] ?? ''}.`.replace(' .', '.');
    default:
      return err.message;
  }
}
