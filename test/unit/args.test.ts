import { describe, expect, it } from 'vitest';
import { ArgumentError, parseArguments } from '../../src/shared/args.ts';

/**
 * The program's one argument reader (src/shared/args.ts): it reads what node:util's parseArgs
 * read, and every refusal is a sentence of ours, never parseArgs' own ("Option '--x <value>'
 * argument missing", "argument is ambiguous", a bare "-1" taken for an option).
 */
const OPTIONS = {
  limit: { type: 'string' },
  json: { type: 'boolean' },
  fault: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

const refusal = (args: string[], o: { positionals?: boolean } = {}) => {
  try {
    parseArguments(args, OPTIONS, o);
  } catch (err) {
    expect(err).toBeInstanceOf(ArgumentError);
    return (err as Error).message;
  }
  return null;
};

describe('parseArguments', () => {
  it('reads values, flags, repeated options, positionals and what follows --', () => {
    expect(parseArguments(['list', '--limit', '5', '--json', 'x', '--fault=a', '--fault', 'b', '--', '--json'], OPTIONS)).toEqual({
      values: { limit: '5', json: true, fault: ['a', 'b'] },
      positionals: ['list', 'x', '--json'],
    });
    // The last of a repeated option wins; a short flag; a lone dash is an argument.
    expect(parseArguments(['--limit=1', '--limit', '2', '-h', '-'], OPTIONS)).toEqual({ values: { limit: '2', help: true }, positionals: ['-'] });
  });

  it('binds a negative number to the option before it, so the option says what its value must be', () => {
    for (const n of ['-1', '-0.5', '-.5', '-1e3']) expect(parseArguments(['--limit', n], OPTIONS).values.limit).toBe(n);
    expect(parseArguments(['--limit=-1'], OPTIONS).values.limit).toBe('-1');
  });

  it('refuses in its own words', () => {
    expect(refusal(['--bogus'])).toBe('Unknown option --bogus.');
    expect(refusal(['--bogus=1'])).toBe('Unknown option --bogus.');
    // A bare negative number where no option takes it: an unknown option, said as such.
    expect(refusal(['-1'])).toBe('Unknown option -1.');
    expect(refusal(['-x'])).toBe('Unknown option -x.');
    expect(refusal(['--limit'])).toBe('--limit needs a value.');
    // Another option where the value should be: parseArgs called it "ambiguous" (and we once said "takes no value").
    expect(refusal(['--limit', '--json'])).toBe('--limit needs a value.');
    expect(refusal(['--json=1'])).toBe('--json takes no value.');
    expect(refusal(['--help=1'])).toBe('--help takes no value.');
    expect(refusal(['extra'], { positionals: false })).toBe('Unexpected argument extra.');
    expect(refusal(['--', 'extra'], { positionals: false })).toBe('Unexpected argument extra.');
    for (const args of [['--bogus'], ['--limit'], ['--limit', '--json'], ['--json=1'], ['-1']])
      expect(refusal(args)).not.toMatch(/parseArgs|ambiguous|argument missing|positional|Option '/);
  });

  it('does not take an inherited name for an option', () => {
    expect(refusal(['--constructor'])).toBe('Unknown option --constructor.');
    expect(refusal(['--toString=x'])).toBe('Unknown option --toString.');
  });
});
