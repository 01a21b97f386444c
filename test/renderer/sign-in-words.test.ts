import { describe, expect, it } from 'vitest';
import { signInWords } from '../../src/main/team/sign-in-words.ts';
import { german } from '../../src/renderer/src/lib/words.de.ts';
import { english } from '../../src/renderer/src/lib/words.ts';
import { coded, sayCode } from '../../src/shared/core-codes.ts';

/**
 * The team server's sign-in page says a refused sign-in (a wrong password, a lock-out, a disabled
 * account) in the words the app's screens say for the same code, in either language: a desktop
 * signing in to the server gets the code and says it itself (test/security/team-sign-in-words.test.ts
 * checks the page over HTTP).
 */
describe("the sign-in page's refusals", () => {
  it('says the coded refusals as the app says them, in either language', () => {
    const saids = [
      coded('team.signInWrong', {}),
      coded('team.signInDisabled', {}),
      coded('team.signInLocked', { minutes: 1 }),
      coded('team.signInLocked', { minutes: 15 }),
    ];
    for (const { message, said } of saids) {
      expect(signInWords('de-DE', undefined).said(said)).toBe(sayCode(said, german.coreCodes));
      expect(signInWords('en-US', undefined).said(said)).toBe(sayCode(said, english.coreCodes));
      expect(signInWords('en-US', undefined).said(said)).toBe(message);
    }
  });
});
