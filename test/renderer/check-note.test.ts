import { afterEach, describe, expect, it } from 'vitest';
import { checkNote } from '../../src/renderer/src/lib/alert-text.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { setLanguage } from '../../src/renderer/src/lib/words.ts';

// Issue 39, item 13: a rule's last check read "+5.19 %" with ISO dates in a German screen. It is
// written from the check's figures in the screen's language and format; an old check keeps its note.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const names = { walletLabel: (a: string) => (a === '0xabc' ? 'Treasury' : null) };
const navMove = {
  at: '2026-11-20T10:00:00.000Z',
  note: 'NAV 2026-11-01 → 2026-11-08: +5.19 %.',
  facts: { kind: 'nav-move' as const, from: '2026-11-01', to: '2026-11-08', percent: 5.1912, skipped: 1 },
};

afterEach(() => {
  setLocale(null);
  setLanguage('en-US');
});

describe("a rule's last check, in the screen's language and format", () => {
  it('de-DE: German words, a German percentage and dates', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    const said = plain(checkNote(navMove, names));
    expect(said).toMatch(/^NAV 1\. Nov\.? 2026 → 8\. Nov\.? 2026: \+5,19 % \(1 teilweise gespeichertes Datum dazwischen, nicht gezählt\)\.$/);
    expect(said).not.toMatch(/2026-11|5\.19/);
  });

  it('en-US: English words and format', () => {
    setLocale('en-US');
    setLanguage('en-US');
    expect(plain(checkNote(navMove, names))).toBe('NAV Nov 1, 2026 → Nov 8, 2026: +5.19% (1 partially cached date between, not counted).');
  });

  it('names the wallet chains not judged by their labels and chain names', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    const said = checkNote(
      { at: navMove.at, note: 'x', facts: { kind: 'positions', what: 'health', checked: 1, holds: 0, notCached: ['0xabc|eth'], unreadable: [] } },
      names,
    );
    expect(said).toMatch(
      /^1 Kreditposition am neuesten gespeicherten Datum jeder Chain geprüft; 0 unter der Schwelle\. Nicht gespeichert, nicht beurteilt: Treasury auf Ethereum\.$/,
    );
  });

  it("a check recorded before its figures shows the core's note", () => {
    setLanguage('de-DE');
    expect(checkNote({ at: navMove.at, note: 'No wallets in scope.' }, names)).toBe('No wallets in scope.');
  });
});
