/** The languages the app speaks: the screens (renderer words.ts, words.de.ts) and the team server's sign-in pages. */
export type Language = 'en' | 'de';

/** The language of a BCP 47 tag (a locale setting, a browser's Accept-Language): German for `de` and its regions, else English. */
export const languageOfTag = (tag: string): Language => (/^de(?:-|$)/i.test(tag) ? 'de' : 'en');
