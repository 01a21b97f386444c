import type { Database } from 'better-sqlite3-multiple-ciphers';
import { updateToSchemaVersion1 } from './001-initial.ts';
import { updateToSchemaVersion2 } from './002-service-conventions.ts';
import { updateToSchemaVersion3 } from './003-snapshot-dates-and-quality.ts';
import { updateToSchemaVersion4 } from './004-newest-first-indexes.ts';
import { updateToSchemaVersion5 } from './005-treasury.ts';
import { updateToSchemaVersion6 } from './006-hash-key.ts';
import { updateToSchemaVersion7 } from './007-hash-key-tail.ts';
import { updateToSchemaVersion8 } from './008-filter-columns.ts';
import { updateToSchemaVersion9 } from './009-tokens-in-row.ts';
import { updateToSchemaVersion10 } from './010-hash-key-levels.ts';
import { updateToSchemaVersion11 } from './011-write-stamps.ts';
import { updateToSchemaVersion12 } from './012-snapshot-checks.ts';
import { updateToSchemaVersion13 } from './013-schedules.ts';
import { updateToSchemaVersion14 } from './014-alerts.ts';
import { updateToSchemaVersion15 } from './015-transaction-changes.ts';
import { updateToSchemaVersion16 } from './016-audit-log.ts';
import { updateToSchemaVersion17 } from './017-counterparties.ts';
import { updateToSchemaVersion18 } from './018-annotations.ts';
import { updateToSchemaVersion19 } from './019-period-closes.ts';
import { updateToSchemaVersion20 } from './020-owed-seams.ts';
import { updateToSchemaVersion21 } from './021-schedule-zones.ts';
import { updateToSchemaVersion22 } from './022-snapshot-contents.ts';
import { updateToSchemaVersion23 } from './023-spam.ts';
import { updateToSchemaVersion24 } from './024-alert-resolution.ts';
import { updateToSchemaVersion25 } from './025-party-dealings.ts';
import { updateToSchemaVersion26 } from './026-audit-people.ts';
import { updateToSchemaVersion27 } from './027-people.ts';
import { updateToSchemaVersion28 } from './028-four-eyes.ts';
import { updateToSchemaVersion29 } from './029-people-oidc.ts';
import { updateToSchemaVersion30 } from './030-view-inputs.ts';
import { updateToSchemaVersion31 } from './031-kept-answers.ts';
import { updateToSchemaVersion32 } from './032-snapshot-tokens.ts';
import { updateToSchemaVersion33 } from './033-people-settings.ts';
import { updateToSchemaVersion34 } from './034-positions-inputs.ts';

/** Every migration in order: entry i brings the schema from version i to i + 1. */
export const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  updateToSchemaVersion1,
  updateToSchemaVersion2,
  updateToSchemaVersion3,
  updateToSchemaVersion4,
  updateToSchemaVersion5,
  updateToSchemaVersion6,
  updateToSchemaVersion7,
  updateToSchemaVersion8,
  updateToSchemaVersion9,
  updateToSchemaVersion10,
  updateToSchemaVersion11,
  updateToSchemaVersion12,
  updateToSchemaVersion13,
  updateToSchemaVersion14,
  updateToSchemaVersion15,
  updateToSchemaVersion16,
  updateToSchemaVersion17,
  updateToSchemaVersion18,
  updateToSchemaVersion19,
  updateToSchemaVersion20,
  updateToSchemaVersion21,
  updateToSchemaVersion22,
  updateToSchemaVersion23,
  updateToSchemaVersion24,
  updateToSchemaVersion25,
  updateToSchemaVersion26,
  updateToSchemaVersion27,
  updateToSchemaVersion28,
  updateToSchemaVersion29,
  updateToSchemaVersion30,
  updateToSchemaVersion31,
  updateToSchemaVersion32,
  updateToSchemaVersion33,
  updateToSchemaVersion34,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
