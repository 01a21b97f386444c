/**
 * Text from the service or the user, made safe to show: characters that are invisible or
 * that move other text (C0/C1 controls, ESC and so terminal escapes, DEL, bidirectional
 * embeddings, overrides, isolates and marks, zero-width and line/paragraph separators,
 * interlinear annotations) can reorder or hide what sits next to them. User-entered labels
 * and tags refuse them; text shown anywhere (UI, PDF, CSV, terminal) shows each as a
 * visible escape such as <U+202E>, so the value stays recognisable and nothing moves.
 * ZWJ (U+200D) and ZWNJ (U+200C) are kept: emoji and several scripts need them, and they
 * reorder nothing.
 */
const UNSAFE_SOURCE = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\ufff9-\\ufffb]';
const UNSAFE = new RegExp(UNSAFE_SOURCE);
const UNSAFE_ALL = new RegExp(UNSAFE_SOURCE, 'g');
/** The same set without tab, LF and CR, which a CSV field carries safely inside quotes. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_CSV_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

const escape = (c: string) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;

/** Every unsafe character replaced by a visible escape, e.g. "abc<U+202E>def". */
export function visibleText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escape) : text;
}

/** Text for a terminal: no escape sequence, control or direction change gets through. */
export const forTerminal = visibleText;

/**
 * The unsafe characters JSON.stringify leaves raw (it escapes C0 controls itself, and a lone
 * surrogate): C1 controls such as U+009B (a terminal's CSI), DEL, and the direction, zero-width
 * and separator marks.
 */
const UNSAFE_IN_JSON_ALL = /[\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

/**
 * A value as JSON for a terminal or a script (the CLI's --json): every unsafe character is
 * written as a \uXXXX escape, so nothing in the bytes steers a terminal, while JSON.parse still
 * gives the exact value (a script reads the service's text as it was sent).
 */
export function jsonForTerminal(value: unknown, space = 2): string {
  return JSON.stringify(value, null, space).replace(UNSAFE_IN_JSON_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text for a CSV field: as visibleText, but tab and line breaks stay (the field is quoted). */
export function forCsv(text: string): string {
  return text.replace(UNSAFE_IN_CSV_ALL, escape);
}

/** What makes a user-entered text unsafe (the first such character, written "U+202E"), or null. */
export function unsafeChars(text: string): { kind: 'control' | 'broken'; char: string } | null {
  const m = UNSAFE.exec(text);
  if (m) return { kind: 'control', char: escape(m[0]).slice(1, -1) };
  // Half of a surrogate pair is no character: the cache (UTF-8) would keep U+FFFD instead, so
  // what was saved would silently differ from what was entered.
  const lone = /\p{Surrogate}/u.exec(text);
  return lone ? { kind: 'broken', char: escape(lone[0]).slice(1, -1) } : null;
}

/** Why a user-entered text is refused, or null when it has nothing unsafe. */
export function unsafeCharsProblem(text: string): string | null {
  const u = unsafeChars(text);
  if (!u) return null;
  return u.kind === 'control'
    ? `contains an invisible control or text-direction character (${u.char}); remove it`
    : `contains a broken character (an unpaired ${u.char}); remove it`;
}
