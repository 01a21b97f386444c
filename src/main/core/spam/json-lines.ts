/**
 * Where things are in a JSON text: the line of each member and element (by its path, as a zod
 * issue names it), and the line and column of the first thing that is not JSON. A list file
 * refused for its member `tokens[3].cid` says which line that is, so a user finds it in an editor.
 *
 * A scanner of JSON's grammar (RFC 8259) that builds nothing: JSON.parse makes the values. Its
 * nesting is bounded, so a file of ten thousand `[` is refused, not a stack overflow.
 */

export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    what: string,
  ) {
    super(`line ${line}, column ${column}: ${what}`);
    this.name = 'JsonSyntaxError';
  }
}

const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A path as it is printed: `tokens[3].cid`. */
export function pathText(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out;
}

/** The line of every value in `text`, by its path; throws JsonSyntaxError at the first fault. */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(line, i - lineStart + 1, what);
  };
  const ws = () => {
    for (;;) {
      const c = text[i];
      if (c === '\n') {
        line++;
        lineStart = ++i;
      } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else return;
    }
  };
  const string = (): string => {
    const start = ++i;
    for (;;) {
      const c = text[i];
      if (c === undefined) return fail('a text is not closed with "');
      if (c === '"') break;
      if (c < ' ') return fail('a text holds a line break or a control character (write it as \\n)');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('\\u needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail('an unknown escape after \\');
      } else i++;
    }
    i++;
    return text.slice(start, i - 1);
  };
  const value = (path: string, depth: number): void => {
    ws();
    if (depth > MAX_DEPTH) fail(`nested more than ${MAX_DEPTH} deep`);
    lines.set(path, line);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a member name in "quotes"');
        const name = JSON.parse(`"${string()}"`) as string;
        ws();
        if (text[i] !== ':') fail(`expected ":" after "${name.slice(0, 40)}"`);
        i++;
        value(path ? `${path}.${name}` : name, depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`, depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail('expected "," or "]"');
      }
    }
    if (c === '"') return void string();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(c === undefined ? 'the text ends where a value was expected' : `unexpected ${JSON.stringify(c)}`);
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  value('', 0);
  ws();
  if (i < text.length) fail('unexpected text after the end of the document');
  return lines;
}
