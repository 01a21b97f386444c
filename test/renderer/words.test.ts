import { words } from '../../src/renderer/src/lib/words.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The UI's words live in src/renderer/src/lib/words.ts. This scan fails when a component writes
// English of two or more words inline: in the markup between tags, or in an aria-label, title,
// placeholder or alt attribute given as a literal.
const root = join(__dirname, '../../src/renderer/src');

/** Inline texts allowed on purpose, as `file: text`, each with its reason. */
const allowed: Record<string, string> = {};

function svelteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return svelteFiles(p);
    return p.endsWith('.svelte') ? [p] : [];
  });
}

/** The markup of a component: without its <script> and <style> blocks and comments. */
function markup(src: string): string {
  return src
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
}

/** Two or more words of letters, e.g. "Sync now" (not "1 / 2", not "«", not "USD"). */
const english = /[A-Za-z]{2,}[\s\S]*?\s+[\s\S]*?[A-Za-z]{2,}/;

/** Markup with its {expressions} blanked out, and the expressions given to attributes. */
function split(m: string): { text: string; attrs: Array<[string, string]> } {
  let text = '';
  const attrs: Array<[string, string]> = [];
  let depth = 0;
  let expr = '';
  for (const ch of m) {
    if (ch === '{') depth++;
    if (depth === 0) text += ch;
    else expr += ch;
    if (ch === '}' && --depth === 0) {
      const attr = /\s([\w-]+)=$/.exec(text)?.[1];
      if (attr) attrs.push([attr, expr]);
      text += ' ';
      expr = '';
    }
  }
  return { text, attrs };
}

export function inlineTexts(src: string): string[] {
  const { text, attrs } = split(markup(src));
  const found: string[] = [];
  // Text between tags.
  for (const [, t] of text.matchAll(/>([^<>]*)</g)) {
    const plain = t.replace(/\s+/g, ' ').trim();
    if (english.test(plain)) found.push(plain);
  }
  // Literal attributes a user reads or hears.
  for (const [, , t] of text.matchAll(/\s(aria-label|title|placeholder|alt)="([^"]*)"/g)) {
    if (english.test(t)) found.push(t.trim());
  }
  // String literals inside such an attribute's expression, e.g. title={x ? 'Not cached yet' : y}.
  for (const [attr, expr] of attrs) {
    if (!/^(aria-label|title|placeholder|alt|label)$/.test(attr)) continue;
    for (const [, , t] of expr.matchAll(/(['"`])([^'"`]*)\1/g)) {
      if (english.test(t.replace(/\$\{[^}]*\}/g, ' '))) found.push(t);
    }
  }
  return found;
}

describe('the UI words catalogue', () => {
  it('the scan finds inline English', () => {
    expect(inlineTexts('<p>Sync the wallet</p><b title="Add a wallet">{x}</b><i>{words.a}</i>')).toEqual(['Sync the wallet', 'Add a wallet']);
  });

  for (const file of svelteFiles(root)) {
    const name = relative(root, file);
    it(`${name} takes its words from the catalogue`, () => {
      const inline = inlineTexts(readFileSync(file, 'utf8')).filter((t) => !allowed[`${name}: ${t}`]);
      expect(inline).toEqual([]);
    });
  }
});

describe('counts agree with their number', () => {
  it('one transaction matches; several transactions match', () => {
    expect(words.timeline.count('1', true)).toBe('1 transaction matches');
    expect(words.timeline.count('1', false)).toBe('1 transaction');
    expect(words.timeline.count('2', true)).toBe('2 transactions match');
    expect(words.timeline.count('500+', false)).toBe('500+ transactions');
  });
});
