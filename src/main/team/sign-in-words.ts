/**
 * The team server's sign-in pages in the language every screen after them speaks: the books'
 * locale setting's, else the browser's first language (as the app's screens take the system's
 * when no locale is set: renderer/src/lib/words.ts `languageFor`). English and German, as the
 * app. The refusals a desktop also gets (coded: `team.signIn*`) are said in the shared English
 * sentences, and in German as the app's German words say them (the renderer's, which the main
 * process may not import: test/renderer/sign-in-words.test.ts holds them to it).
 */
import { type CoreSaid, englishCoreCodes, sayCode } from '../../shared/core-codes.ts';
import { type Language, languageOfTag } from '../../shared/language.ts';

export interface SignInWords {
  /** The `lang` of the page. */
  lang: Language;
  title: string;
  lede: string;
  withProvider: (label: string) => string;
  or: string;
  name: string;
  password: string;
  submit: string;
  typeBoth: string;
  noPasswords: (label: string) => string;
  /** A sign-in through the provider that this browser did not start, already used or too old. */
  notStarted: (label: string) => string;
  providerRefused: (label: string, code: string, passwords: boolean) => string;
  unverified: (label: string) => string;
  noSubject: (label: string) => string;
  notLinked: (label: string, command: string) => string;
  signedInTitle: string;
  signedIn: (person: string) => string;
  open: string;
  /** A coded refusal of the sign-in (a wrong password, a lock-out, a disabled account). */
  said: (said: CoreSaid) => string;
}

const en: SignInWords = {
  lang: 'en',
  title: 'Sign in',
  lede: "Sign in to the team's books.",
  withProvider: (label) => `Sign in with ${label}`,
  or: 'or with your name and password',
  name: 'Name',
  password: 'Password',
  submit: 'Sign in',
  typeBoth: 'Type your name and password.',
  noPasswords: (label) => `This server takes no passwords: sign in with ${label}.`,
  notStarted: (label) => `This sign-in was not started in this browser, was already used or took too long: start again with "Sign in with ${label}".`,
  providerRefused: (label, code, passwords) =>
    `${label} did not sign you in (${code}): start again with "Sign in with ${label}"${passwords ? ', or use your password' : ''}.`,
  unverified: (label) =>
    `${label}'s answer could not be verified, so nobody is signed in: start again. If it happens again, tell an owner (the server's log says why).`,
  noSubject: (label) => `${label} did not say who you are: start again.`,
  notLinked: (label, command) => `Your account at ${label} is not linked to anyone here. Ask an owner to link it: ${command}`,
  signedInTitle: 'Signed in',
  signedIn: (person) => `Signed in as ${person}.`,
  open: 'Open the books',
  // The app's own English for the code (the desktop's, and the JSON answer's `message`).
  said: (said) => sayCode(said, englishCoreCodes),
};

const de: SignInWords = {
  lang: 'de',
  title: 'Anmelden',
  lede: 'Melden Sie sich bei den Büchern des Teams an.',
  withProvider: (label) => `Mit ${label} anmelden`,
  or: 'oder mit Ihrem Namen und Passwort',
  name: 'Name',
  password: 'Passwort',
  submit: 'Anmelden',
  typeBoth: 'Geben Sie Ihren Namen und Ihr Passwort ein.',
  noPasswords: (label) => `Dieser Server nimmt keine Passwörter an: Melden Sie sich mit ${label} an.`,
  notStarted: (label) =>
    `Diese Anmeldung wurde nicht in diesem Browser begonnen, schon verwendet oder hat zu lange gedauert: Beginnen Sie erneut mit „Mit ${label} anmelden“.`,
  providerRefused: (label, code, passwords) =>
    `${label} hat Sie nicht angemeldet (${code}): Beginnen Sie erneut mit „Mit ${label} anmelden“${passwords ? ' oder verwenden Sie Ihr Passwort' : ''}.`,
  unverified: (label) =>
    `Die Antwort von ${label} ließ sich nicht prüfen, daher ist niemand angemeldet: Beginnen Sie erneut. Geschieht es wieder, sagen Sie es einem Inhaber (das Protokoll des Servers nennt den Grund).`,
  noSubject: (label) => `${label} hat nicht gesagt, wer Sie sind: Beginnen Sie erneut.`,
  notLinked: (label, command) => `Ihr Konto bei ${label} ist mit niemandem hier verknüpft. Bitten Sie einen Inhaber, es zu verknüpfen: ${command}`,
  signedInTitle: 'Angemeldet',
  signedIn: (person) => `Angemeldet als ${person}.`,
  open: 'Die Bücher öffnen',
  said: (said) => {
    switch (said.code) {
      case 'team.signInWrong':
        return 'Name und Passwort passen nicht zusammen.';
      case 'team.signInLocked': {
        const { minutes } = said.values as { minutes: number };
        return `Zu viele fehlgeschlagene Anmeldungen: Versuchen Sie es in ${minutes.toLocaleString('de-DE')} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`;
      }
      case 'team.signInDisabled':
        return 'Dieses Konto ist deaktiviert: Fragen Sie einen Inhaber.';
      default:
        throw new Error(`not a sign-in refusal: ${said.code}`);
    }
  },
};

const byLanguage: Record<Language, SignInWords> = { en, de };

/** The English words (a refusal's `message`, the log's language). */
export const englishSignInWords: SignInWords = en;

/** German for a de-* tag ("de", "de-DE", "de-CH"), English otherwise. */

/** The browser's most wanted language in an Accept-Language header (the first of the highest weight), or null. */
export function firstLanguage(header: string | undefined): string | null {
  let best: { tag: string; q: number } | null = null;
  for (const part of (header ?? '').slice(0, 1000).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    if (!/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    if (weight > 0 && (!best || weight > best.q)) best = { tag, q: weight };
  }
  return best?.tag ?? null;
}

/** The sign-in pages' words: the books' locale setting's language, else the browser's (Accept-Language), else English. */
export function signInWords(locale: string | null | undefined, acceptLanguage: string | undefined): SignInWords {
  return byLanguage[languageOfTag(locale || firstLanguage(acceptLanguage) || 'en')];
}
