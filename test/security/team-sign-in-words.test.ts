/**
 * The team server's sign-in pages in one language (issue 39: one language per screen): the books'
 * locale setting's, else the browser's first language, over real HTTP (the refusals said as the
 * app says them: test/renderer/sign-in-words.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLanguage, signInWords } from '../../src/main/team/sign-in-words.ts';
import { useSimulator } from '../support/sim.ts';
import { MIN, startTeam, type Team } from '../support/team-http.ts';

describe("the sign-in pages' language", () => {
  it('is the browser’s most wanted language, read as RFC 9110 weighs it, and nothing a header cannot say', () => {
    expect(firstLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de-DE');
    expect(firstLanguage('en;q=0.5, de-CH;q=0.9')).toBe('de-CH');
    expect(firstLanguage('fr, de;q=1')).toBe('fr');
    expect(firstLanguage('*;q=1, de;q=0.2')).toBe('de');
    expect(firstLanguage('de;q=0')).toBeNull();
    expect(firstLanguage('')).toBeNull();
    expect(firstLanguage(undefined)).toBeNull();
    expect(firstLanguage('<script>, de;q=abc')).toBe('de');
    // Only its first 1,000 characters are read.
    expect(firstLanguage(`${' '.repeat(1000)}de`)).toBeNull();
  });

  it('follows the locale setting first, as every screen after it does', () => {
    expect(signInWords('en-US', 'de-DE').lang).toBe('en');
    expect(signInWords('de-AT', 'en-US').lang).toBe('de');
    expect(signInWords(null, 'de-CH,en;q=0.5').lang).toBe('de');
    expect(signInWords(null, 'deu').lang).toBe('en');
    expect(signInWords(null, undefined).lang).toBe('en');
  });
});

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  team = await startTeam({ sim: ctx.sim.url, people: [['greta', 'viewer']] });
});
afterAll(async () => {
  await team?.close();
});

/** The page's language and its visible text, tags out. */
const read = (html: string) => ({
  lang: /<html lang="([a-z]+)">/.exec(html)?.[1],
  text: html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' '),
});

describe('the sign-in pages over HTTP', () => {
  it('speak the browser’s language with no locale set, the setting’s once it is set, the refusals included', async () => {
    const de = read((await team.raw('/sign-in', { headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' } })).body);
    expect(de.lang).toBe('de');
    expect(de.text).toContain('Melden Sie sich bei den Büchern des Teams an.');
    expect(de.text).toContain('Passwort');
    expect(de.text).not.toMatch(/Sign in|Password/);
    const en = read((await team.raw('/sign-in', { headers: { 'Accept-Language': 'en-GB' } })).body);
    expect(en.lang).toBe('en');
    expect(en.text).toContain("Sign in to the team's books.");

    const wrong = await team.signIn('greta', 'not her password', { 'Accept-Language': 'de' });
    expect(wrong.status).toBe(401);
    expect(read(wrong.body).text).toContain('Name und Passwort passen nicht zusammen.');

    // The books in German: the page is German whatever the browser asks.
    await team.core.call('settings.update', { locale: 'de-DE' });
    const set = await team.signIn('greta', 'still not her password', { 'Accept-Language': 'en-US' });
    expect(read(set.body).lang).toBe('de');
    expect(read(set.body).text).toContain('Name und Passwort passen nicht zusammen.');
    const empty = await team.signIn('greta', '');
    expect(read(empty.body).text).toContain('Geben Sie Ihren Namen und Ihr Passwort ein.');
    await team.core.call('settings.update', { locale: null });
    expect(read((await team.raw('/sign-in')).body).lang).toBe('en');
    team.clock.t += 16 * MIN;
  });
});
