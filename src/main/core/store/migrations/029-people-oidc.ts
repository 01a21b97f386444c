import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 29: people who sign in through the team's OpenID Connect provider (issue 37 item 2,
 * docs/team.md "Sign-in through the team's provider"). Owned by core/people. A person is linked
 * to one account at one provider by an owner (`folioscope users link-oidc`), never made by a
 * sign-in: `oidc_issuer` is the provider's issuer identifier exactly as it publishes it, and
 * `oidc_subject` its `sub` for the person (both NULL: not linked). A subject at one issuer is one
 * person's at most (the unique index). Nothing here is a secret: the client's secret is only in
 * the server's environment.
 *
 * A person linked only through the provider has no password: `password` holds `!` (as a locked
 * entry of /etc/shadow), which no scrypt hash equals and the sign-in checks as an unknown name's
 * (against a dummy hash), so password sign-in is refused in the same time as any wrong one.
 * `password` stays NOT NULL: making it nullable would mean rebuilding `people`, which the
 * sessions and tokens reference.
 */
export function updateToSchemaVersion29(db: Database): void {
  db.exec(`
    ALTER TABLE people ADD COLUMN oidc_issuer TEXT;
    ALTER TABLE people ADD COLUMN oidc_subject TEXT;
    CREATE UNIQUE INDEX people_by_oidc ON people (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL;
  `);
}
