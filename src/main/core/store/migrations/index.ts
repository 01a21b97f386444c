import type { Database } from 'better-sqlite3';
import { updateToSchemaVersion1 } from './001-initial.ts';

/** Every migration in order: entry i brings the schema from version i to i + 1. */
export const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [updateToSchemaVersion1];

export const SCHEMA_VERSION = MIGRATIONS.length;
