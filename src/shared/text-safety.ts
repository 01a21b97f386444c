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

/** Text for a CSV field: as visibleText, but tab and line breaks stay (the field is quoted). */
export function forCsv(text: string): string {
  return text.replace(UNSAFE_IN_CSV_ALL, escape);
}

/** Why a user-entered text is refused, or null when it has nothing unsafe. */
export function unsafeCharsProblem(text: string): string | null {
  const m = UNSAFE.exec(text);
  return m ? `contains an invisible control or text-direction character (${escape(m[0]).slice(1, -1)}); remove it` : null;
}
