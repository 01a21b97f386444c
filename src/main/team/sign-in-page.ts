/**
 * The team server's sign-in page: server-rendered HTML with no script at all (its CSP allows
 * none), a form posting name and password to /sign-in, and one small stylesheet of its own.
 * With the team's OpenID Connect provider configured, a link "Sign in with <provider>" beside
 * the form (a link, not a form: CSP's form-action would stop a form's redirect to the provider),
 * and the form not at all when the server takes no passwords. Every text placed in it is escaped;
 * its words are in the language of the screens after it (sign-in-words.ts).
 */
import type { SignInWords } from './sign-in-words.ts';

/** No script, styles from this server only, the form posting only here, never framed. */
export const SIGN_IN_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the sign-in's (no script, this server's stylesheet): its title, what its main holds after the heading, and any head lines of its own. */
function pageOf(w: SignInWords, title: string, main: string, head = ''): string {
  return `<!doctype html>
<html lang="${w.lang}">
<head>
<meta charset="utf-8">
${head}<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Folioscope</title>
<link rel="stylesheet" href="/sign-in.css">
</head>
<body>
<main>
<h1>Folioscope</h1>
${main}</main>
</body>
</html>
`;
}

export function signInPage(w: SignInWords, o: { message?: string; name?: string; provider?: string; passwords?: boolean }): string {
  const passwords = o.passwords ?? true;
  return pageOf(
    w,
    escape(w.title),
    `<p class="lede">${escape(w.lede)}</p>
${o.message ? `<p class="problem" role="alert">${escape(o.message)}</p>` : ''}
${o.provider ? `<p><a class="provider" href="/sign-in/oidc">${escape(w.withProvider(o.provider))}</a></p>\n` : ''}${o.provider && passwords ? `<p class="or">${escape(w.or)}</p>\n` : ''}${
      passwords
        ? `<form method="post" action="/sign-in">
<label for="name">${escape(w.name)}</label>
<input id="name" name="name" autocomplete="username" required maxlength="64" value="${escape(o.name ?? '')}"${o.name || o.provider ? '' : ' autofocus'}>
<label for="password">${escape(w.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${o.name ? ' autofocus' : ''}>
<button type="submit">${escape(w.submit)}</button>
</form>
`
        : ''
    }`,
  );
}

export const SIGN_IN_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { width: min(22rem, 90vw); padding: 2rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 8px; }
h1 { margin: 0 0 0.25rem; font-size: 1.5rem; }
.lede { margin: 0 0 1.5rem; opacity: 0.8; }
form { display: grid; gap: 0.5rem; }
label { font-weight: 600; margin-top: 0.5rem; }
input { font: inherit; padding: 0.5rem; border: 1px solid color-mix(in srgb, CanvasText 40%, transparent); border-radius: 4px; background: Field; color: FieldText; }
button { font: inherit; margin-top: 1rem; padding: 0.6rem; border: 0; border-radius: 4px; background: #1f5fbf; color: #fff; cursor: pointer; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 2px solid #1f5fbf; outline-offset: 2px; }
.provider { display: block; padding: 0.6rem; border-radius: 4px; background: #1f5fbf; color: #fff; text-align: center; text-decoration: none; font-weight: 600; }
.or { margin: 1.25rem 0 0; text-align: center; opacity: 0.8; font-size: 0.9rem; }
.problem { padding: 0.5rem 0.75rem; border-left: 4px solid #b3261e; background: color-mix(in srgb, #b3261e 12%, Canvas); }
`;

/**
 * The page after a sign-in through the provider: it sets the session and moves on to the app by
 * itself (a meta refresh, no script). Not a redirect: the provider's redirect back began on
 * another site, and a browser keeps a SameSite=Strict cookie out of every request of a
 * cross-site redirect chain, so the app would not see the new session; a navigation this page
 * starts is the server's own.
 */
export function signedInPage(w: SignInWords, person: string): string {
  return pageOf(
    w,
    escape(w.signedInTitle),
    `<p>${escape(w.signedIn(person))} <a href="/">${escape(w.open)}</a></p>\n`,
    '<meta http-equiv="refresh" content="0; url=/">\n',
  );
}
