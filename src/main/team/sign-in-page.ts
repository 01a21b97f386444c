/**
 * The team server's sign-in page: server-rendered HTML with no script at all (its CSP allows
 * none), a form posting name and password to /sign-in, and one small stylesheet of its own.
 * Every text placed in it is escaped.
 */

/** No script, styles from this server only, the form posting only here, never framed. */
export const SIGN_IN_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function signInPage(o: { message?: string; name?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Sign in · Folioscope</title>
<link rel="stylesheet" href="/sign-in.css">
</head>
<body>
<main>
<h1>Folioscope</h1>
<p class="lede">Sign in to the team's books.</p>
${o.message ? `<p class="problem" role="alert">${escape(o.message)}</p>` : ''}
<form method="post" action="/sign-in">
<label for="name">Name</label>
<input id="name" name="name" autocomplete="username" required maxlength="64" value="${escape(o.name ?? '')}"${o.name ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${o.name ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
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
button:focus-visible, input:focus-visible { outline: 2px solid #1f5fbf; outline-offset: 2px; }
.problem { padding: 0.5rem 0.75rem; border-left: 4px solid #b3261e; background: color-mix(in srgb, #b3261e 12%, Canvas); }
`;
