/**
 * The little of oidc-provider (a devDependency without types of its own) the tests use to start a
 * real OpenID Connect provider (test/support/oidc.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys: string[] };
    features?: Record<string, unknown>;
    pkce?: { required?: () => boolean };
    findAccount?: (ctx: unknown, sub: string) => Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> | Record<string, unknown> }>;
    [key: string]: unknown;
  }
  export class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export default Provider;
}
