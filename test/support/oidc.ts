/**
 * A real OpenID Connect provider for the team server's tests (oidc-provider, in this process over
 * real HTTP on 127.0.0.1:0), with its development login (any name signs in as the subject of that
 * name) and one confidential client. Its client's redirect URI is the team server's, known only
 * once that server listens, while the server needs the provider up to start (discovery): so the
 * provider first serves with no client, and `register` then puts an instance with the client in
 * its place, same issuer and same signing key, as an operator registers the URI the server prints.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'folioscope-team';
/** The client's secret the tests look for in every page, log line and file: it must be in none. */
export const CLIENT_SECRET = 'oidc-client-secret-7f3a9c2e41b8d5d0a6e9';

export interface TestProvider {
  issuer: string;
  /** Registers the client with this redirect URI (replacing the provider that had none). */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

/**
 * `name`: the host the issuer is named by (127.0.0.1 by default). `localhost` makes the provider
 * another site than a team server on 127.0.0.1, as a real provider is (ports do not make sites
 * differ), so a browser applies its cross-site cookie rules to the redirects between them.
 */
export async function startProvider(o: { secret?: string; name?: '127.0.0.1' | 'localhost' } = {}): Promise<TestProvider> {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://${o.name ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const make = (clients: Record<string, unknown>[]) =>
    new Provider(issuer, {
      clients,
      jwks: { keys: [{ ...jwk, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: ['a cookie key of the test provider'] },
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      // Said, so the provider does not print a notice for each default it falls back on.
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    });
  handler = make([]).callback();
  return {
    issuer,
    register(redirectUri) {
      handler = make([
        {
          client_id: CLIENT_ID,
          client_secret: o.secret ?? CLIENT_SECRET,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ]).callback();
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A cookie jar for fetch: what each response set, sent back to the same host and port (paths and SameSite are the browser's business, not this test's). */
export class Jar {
  private readonly byHost = new Map<string, Map<string, string>>();
  take(url: string, res: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    this.byHost.set(host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
  header(url: string): string {
    return [...(this.byHost.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get(url: string, name: string): string | undefined {
    return this.byHost.get(new URL(url).host)?.get(name);
  }
  set(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    this.byHost.set(host, jar);
    jar.set(name, value);
  }
  delete(url: string, name: string): void {
    this.byHost.get(new URL(url).host)?.delete(name);
  }
}

export interface Hop {
  url: string;
  status: number;
  body: string;
  location: string | null;
}

/** Every answer `hop` received (its URL, headers and body), for a test to look for what must be in none. */
export const seen: string[] = [];

/** One request as a browser makes it, with the jar's cookies; no redirect followed. */
export async function hop(jar: Jar, url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Hop> {
  const cookie = jar.header(url);
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { ...(cookie && { Cookie: cookie }), ...init.headers },
    ...(init.body !== undefined && { body: init.body }),
  });
  jar.take(url, res);
  const location = res.headers.get('location');
  const body = await res.text();
  seen.push(`${url}\n${JSON.stringify([...res.headers])}\n${body}`);
  return { url, status: res.status, body, location: location && new URL(location, url).href };
}

/** Follows redirects from `url` while they stay on `origin` (all when not given): the hops taken, the last first. */
export async function follow(jar: Jar, url: string, origin?: string): Promise<Hop[]> {
  const hops: Hop[] = [];
  let next: string | null = url;
  for (let i = 0; next && i < 20; i++) {
    if (origin && new URL(next).origin !== origin) break;
    const h = await hop(jar, next);
    hops.unshift(h);
    next = h.status >= 300 && h.status < 400 ? h.location : null;
  }
  return hops;
}

/**
 * Signs in at the provider as `subject` (its development login: any name and password) from the
 * authorization request's URL, and consents: the provider's redirect back to the client (the
 * callback URL, with code and state), not followed.
 */
export async function loginAtProvider(jar: Jar, authorizeUrl: string, subject: string): Promise<string> {
  const provider = new URL(authorizeUrl).origin;
  let hops = await follow(jar, authorizeUrl, provider);
  for (let step = 0; step < 6; step++) {
    const last = hops[0]!;
    if (last.location && new URL(last.location).origin !== provider) return last.location;
    if (last.status !== 200) throw new Error(`The provider answered ${last.status}: ${last.body.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(last.body)?.[1];
    if (!action) throw new Error(`No form on the provider's page: ${last.body.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(last.body)?.[1] ?? 'consent';
    const form = prompt === 'login' ? { prompt, login: subject, password: 'any password' } : { prompt };
    const target = new URL(action.replace(/&amp;/g, '&'), last.url).href;
    const posted = await hop(jar, target, {
      method: 'POST',
      body: new URLSearchParams(form).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (!posted.location) throw new Error(`The provider's ${prompt} answered ${posted.status}: ${posted.body.slice(0, 300)}`);
    if (new URL(posted.location).origin !== provider) return posted.location;
    hops = await follow(jar, posted.location, provider);
  }
  throw new Error('The provider did not send the browser back.');
}
