/**
 * The people of a team server (docs/team.md): who may sign in, their roles, sessions, API
 * tokens and the sign-in lock-out, over the tables of migration 27. The team server shell and
 * the CLI's `users` reach it through the core (`Core.people`), never through the contract: no
 * renderer may ask for a session or a password check.
 */
export {
  ABSOLUTE_LIMIT_MS,
  ADDRESS_FAILURES,
  cappedRole,
  IDLE_LIMIT_MS,
  LOCK_WINDOW_MS,
  MAX_SESSIONS_PER_PERSON,
  MAX_TOKENS_PER_PERSON,
  NAME_FAILURES,
  PeopleError,
  peopleKeeper,
  TooManyTokensError,
  peopleOf,
  type OidcLink,
  type OidcSignIn,
  type People,
  type Person,
  type SignedIn,
  type SignIn,
} from './people.ts';
export { MIN_PASSWORD_LENGTH } from './passwords.ts';
/** Each person's own theme, format and time zone, over the books' settings. */
export { setPersonalDisplay, settingsFor, type PersonalDisplay } from './display.ts';
/** A replica's copy of the books without the people's secrets (the composition root hands it to the backups). */
export { scrubSecrets as scrubPeopleSecrets } from './store/people.ts';
