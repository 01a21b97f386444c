/**
 * Sign-in through the team's OpenID Connect provider (docs/team.md "Sign-in through the team's
 * provider"): the relying party's side, through openid-client (never hand-rolled). The
 * authorization code flow with PKCE (S256), a state and a nonce per attempt; the attempt is kept
 * here, in this process, under a random id the browser holds in a short-lived cookie (the server's
 * routes in server.ts), and is taken once. openid-client checks the answer: the state, the
 * issuer (RFC 9207's `iss` when the provider sends it), the code exchanged with the verifier and
 * the client's secret, and the ID token's signature, issuer, audience, expiry and nonce.
 *
 * The client's secret is handed in by the command (from FOLIOSCOPE_OIDC_CLIENT_SECRET) and kept
 * only inside openid-client's client authentication: no page, log line, error or file gets it.
 */
import { englishSignInWords } from './sign-in-words.ts';
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { isLoopback } from './security.ts';

export const OIDC_SECRET_ENV = 'FOLIOSCOPE_OIDC_CLIENT_SECRET';
/** Where the provider sends the browser back: this server's origin and this path (register it with the provider). */
export const OIDC_CALLBACK_PATH = '/sign-in/oidc/callback';
export const OIDC_START_PATH = '/sign-in/oidc';
/** An attempt not finished within this long is gone: start again. */
export const OIDC_ATTEMPT_MS = 10 * 60_000;
/**
 * Attempts waiting at most (the oldest dropped beyond it): starting one needs nobody signed in,
 * so without a bound anyone could fill the server's memory with them.
 */
export const MAX_OIDC_ATTEMPTS = 1000;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page's button names ("Sign in with …"); the issuer's host when not given. */
  name?: string;
}

export interface OidcAttempt {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  startedAt: number;
}

/**
 * Why a provider's answer was not taken: `kind` for the person in front of the page (said in
 * the page's language: sign-in-words.ts; `message` is the English), `detail` for the server's log.
 */
export class OidcRefusal extends Error {
  override name = 'OidcRefusal';
  /** What went wrong for the server's log (never the secret), beside the person's sentence. */
  constructor(
    readonly kind: 'unverified' | 'noSubject',
    readonly label: string,
    readonly detail: string,
  ) {
    super(englishSignInWords[kind](label));
  }
}

export interface OidcProvider {
  /** The issuer identifier as the provider publishes it: a linked person's `oidc_issuer` must equal it. */
  issuer: string;
  /** The name on the sign-in page's button. */
  label: string;
  /** A new attempt and the provider's authorization URL to send the browser to. */
  start(redirectUri: string, now: number): Promise<{ attempt: OidcAttempt; url: string }>;
  /** The subject the provider vouches for, once every check of its answer (`query`: the callback's) holds; else OidcRefusal. */
  finish(attempt: OidcAttempt, query: URLSearchParams): Promise<{ issuer: string; subject: string }>;
}

/** What is wrong with an issuer to use, or null: https, or http only for a provider on this machine (tests). */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `--oidc-issuer needs the provider's issuer URL (https://…), not "${issuer.slice(0, 60)}".`;
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null;
  return `--oidc-issuer must be https:// (plain http only for a provider on this machine): "${issuer.slice(0, 60)}" would let anyone on the way forge who signs in.`;
}

/** The secret as a log line or error might carry it, taken out (whatever a library put in its message). */
function withoutSecret(text: string, secret: string): string {
  return secret ? text.split(secret).join('[secret]') : text;
}

/**
 * Finds the provider (its discovery document) and makes the client: refused with a sentence a
 * person can act on when the issuer is not usable, not reachable, or not the one it says it is.
 */
export async function discoverProvider(s: OidcSettings): Promise<OidcProvider> {
  const problem = issuerProblem(s.issuer);
  if (problem) throw new Error(problem);
  if (!s.clientId) throw new Error('--oidc-client-id needs the client id the provider gave this server.');
  if (!s.clientSecret)
    throw new Error(`Set ${OIDC_SECRET_ENV} to the client's secret (it is never an argument): the provider checks it when the server redeems a sign-in.`);
  const issuerUrl = new URL(s.issuer);
  const insecure = issuerUrl.protocol === 'http:';
  let found: client.Configuration;
  try {
    found = await client.discovery(issuerUrl, s.clientId, undefined, client.None(), {
      ...(insecure && { execute: [client.allowInsecureRequests] }),
      timeout: 15,
    });
  } catch (err) {
    const why = withoutSecret(err instanceof Error ? err.message : String(err), s.clientSecret);
    throw new Error(
      `Could not read the OpenID Connect provider's discovery document at ${s.issuer} (${why}): check --oidc-issuer (the issuer exactly as the provider publishes it) and that this machine reaches it, or start the server without --oidc-issuer.`,
      { cause: err },
    );
  }
  const meta = found.serverMetadata();
  const methods = meta.token_endpoint_auth_methods_supported;
  // client_secret_basic is the default when a provider says nothing (OpenID Connect Discovery).
  const auth =
    !methods || methods.includes('client_secret_basic')
      ? client.ClientSecretBasic(s.clientSecret)
      : methods.includes('client_secret_post')
        ? client.ClientSecretPost(s.clientSecret)
        : null;
  if (!auth)
    throw new Error(
      `The provider at ${s.issuer} takes neither client_secret_basic nor client_secret_post at its token endpoint: this server signs in with a client secret.`,
    );
  const pkce = meta.code_challenge_methods_supported;
  if (pkce && !pkce.includes('S256')) throw new Error(`The provider at ${s.issuer} does not offer PKCE with S256, which this server requires.`);
  const config = new client.Configuration(meta, s.clientId, undefined, auth);
  if (insecure) client.allowInsecureRequests(config);
  const issuer = meta.issuer;
  const label = (s.name ?? '').trim().slice(0, 60) || issuerUrl.host;

  return {
    issuer,
    label,
    async start(redirectUri, now) {
      const attempt: OidcAttempt = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        redirectUri,
        startedAt: now,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(attempt.verifier),
        code_challenge_method: 'S256',
        state: attempt.state,
        nonce: attempt.nonce,
      });
      return { attempt, url: url.href };
    },
    async finish(attempt, query) {
      const current = new URL(attempt.redirectUri);
      for (const [k, v] of query) current.searchParams.append(k, v);
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: attempt.verifier,
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (err) {
        const detail = withoutSecret(describe(err), s.clientSecret);
        throw new OidcRefusal('unverified', label, detail);
      }
      if (!claims?.sub) throw new OidcRefusal('noSubject', label, 'no ID token subject');
      return { issuer, subject: claims.sub };
    },
  };
}

/** An openid-client error as one line: its message, the check that failed (its cause's message), its code, and the provider's error when it sent one. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { code?: string; error?: string; error_description?: string; cause?: unknown };
  const parts = [e.message];
  if (e.cause instanceof Error && e.cause.message !== e.message) parts.push(e.cause.message);
  if (e.code) parts.push(e.code);
  if (e.error) parts.push(`${e.error}${e.error_description ? `: ${e.error_description}` : ''}`);
  return parts
    .join(' · ')
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 400);
}

/**
 * The attempts under way: taken once (a replayed callback finds nothing), gone after
 * OIDC_ATTEMPT_MS, at most MAX_OIDC_ATTEMPTS. When full, the one dropped is the oldest of the
 * address holding the most (each kept with the address it came from, an IPv6 one by its /64): a
 * client sending attempts by the thousand pushes out its own, never a colleague's half-way
 * through signing in.
 */
export function oidcAttempts(max = MAX_OIDC_ATTEMPTS) {
  const pending = new Map<string, OidcAttempt & { from: string }>();
  const sweep = (now: number) => {
    for (const [id, a] of pending) if (now - a.startedAt >= OIDC_ATTEMPT_MS || now < a.startedAt) pending.delete(id);
  };
  /** The oldest attempt of the address with the most (a Map keeps its insertion order: the first met is the oldest). */
  const evictable = (): string => {
    const count = new Map<string, number>();
    for (const a of pending.values()) count.set(a.from, (count.get(a.from) ?? 0) + 1);
    const busiest = [...count].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    for (const [id, a] of pending) if (a.from === busiest) return id;
    return pending.keys().next().value!;
  };
  return {
    /** Keeps the attempt begun from `from` (the lock-out's address); the id the browser's cookie holds. */
    put(attempt: OidcAttempt, now: number, from = ''): string {
      sweep(now);
      while (pending.size >= max) pending.delete(evictable());
      const id = randomBytes(32).toString('base64url');
      pending.set(id, { ...attempt, from });
      return id;
    },
    /** The attempt under `id`, removed (one use), if it is still within its time. */
    take(id: string, now: number): OidcAttempt | null {
      const a = pending.get(id);
      if (!a) return null;
      pending.delete(id);
      return now - a.startedAt < OIDC_ATTEMPT_MS && now >= a.startedAt ? a : null;
    },
    size: () => pending.size,
  };
}
