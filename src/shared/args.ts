/**
 * The one reader of command-line arguments, for every command of the `folioscope` program (the
 * CLI's, the web shell's `serve`, the simulator's `sim`). It reads the same lines node:util's
 * parseArgs read in strict mode, but every refusal is ours, in the words of every usage error:
 * parseArgs' own messages explain its API, not the command ("Option '-x, --x <value>' argument
 * missing", "argument is ambiguous", a bare "-1" taken for an option). Plain code, no Node
 * built-in, so it lives in src/shared and every shell and the simulator use it.
 */

/** An option as a command declares it (the subset of parseArgs' options the program uses). */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string | undefined;
  multiple?: boolean | undefined;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<O extends OptionSpec> = O['type'] extends 'string'
  ? O extends { multiple: true }
    ? string[]
    : string
  : O extends { multiple: true }
    ? boolean[]
    : boolean;

/** The values read, by option name: absent when not given (so `??` gives a default). */
export type ParsedValues<T extends OptionSpecs> = { -readonly [K in keyof T]?: ValueOf<T[K]> | undefined };

/** What was wrong with the arguments, as one sentence (the caller adds its usage and exits 2). */
export class ArgumentError extends Error {}

/** `-1`, `-0.5`, `-.5`, `-1e3`: what a person means as a number, not an option. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * Reads `args` against `options`: `--name value`, `--name=value`, `-x`, booleans as flags, `--`
 * ending the options. A negative number after an option that takes a value is that value
 * (`--limit -1` reaches the option's own check, which says what the value must be). Throws
 * ArgumentError for an unknown option, a missing value, a value given to a flag, or an argument
 * where the command takes none (`positionals: false`).
 */
export function parseArguments<T extends OptionSpecs>(
  args: readonly string[],
  options: T,
  o: { positionals?: boolean } = {},
): { values: ParsedValues<T>; positionals: string[] } {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const byShort = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  const positional = (arg: string) => {
    if (o.positionals === false) throw new ArgumentError(`Unexpected argument ${arg}.`);
    positionals.push(arg);
  };
  const set = (name: string, spec: OptionSpec, value: string | boolean) => {
    // As parseArgs: the last of a repeated option wins, unless it may be given more than once.
    values[name] = spec.multiple ? [...((values[name] as unknown[] | undefined) ?? []), value] : value;
  };
  /** The value of a string option given as `--name` or `-x`: the next argument, unless it is another option. */
  const valueAfter = (i: number, shown: string): string => {
    const next = args[i + 1];
    if (next === undefined || (next.length > 1 && next.startsWith('-') && !NEGATIVE_NUMBER.test(next))) throw new ArgumentError(`${shown} needs a value.`);
    return next;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (const rest of args.slice(i + 1)) positional(rest);
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const spec = Object.hasOwn(options, name) ? options[name] : undefined;
      if (!spec) throw new ArgumentError(`Unknown option --${name}.`);
      if (spec.type === 'boolean') {
        if (eq >= 0) throw new ArgumentError(`--${name} takes no value.`);
        set(name, spec, true);
      } else if (eq >= 0) set(name, spec, arg.slice(eq + 1));
      else set(name, spec, valueAfter(i++, `--${name}`));
      continue;
    }
    // A lone dash is an argument (standard input, by convention); `-x`, or `-xy` for two flags.
    if (arg.length > 1 && arg.startsWith('-')) {
      for (let c = 1; c < arg.length; c++) {
        const name = byShort.get(arg[c]!);
        const spec = name === undefined ? undefined : options[name];
        if (name === undefined || !spec) throw new ArgumentError(`Unknown option -${arg[c]}.`);
        if (spec.type === 'boolean') {
          set(name, spec, true);
          continue;
        }
        // `-pVALUE`, or the value in the next argument.
        set(name, spec, c + 1 < arg.length ? arg.slice(c + 1) : valueAfter(i++, `--${name}`));
        break;
      }
      continue;
    }
    positional(arg);
  }
  return { values: values as ParsedValues<T>, positionals };
}
