// Every migration this build knows, in version order. A database recording a version not listed
// here was migrated by a newer build, and start-up refuses it.
import type { Migration } from './migration.js';
import { initialSchema } from './0001-initial-schema.js';
import { outboxSchema } from './0002-outbox.js';
import { spendSchema } from './0003-spend.js';
import { ratePermitsSchema } from './0004-rate-permits.js';
import { expireWithCommitSchema } from './0005-expire-with-commit.js';
import { watchedNotificationsSchema } from './0006-watched-notifications.js';
import { journalWithoutForeignKeysSchema } from './0007-journal-without-foreign-keys.js';
import { insertWithItemsSchema } from './0008-insert-with-items.js';

export type { Migration } from './migration.js';

export const migrations: readonly Migration[] = [initialSchema, outboxSchema, spendSchema, ratePermitsSchema, expireWithCommitSchema, watchedNotificationsSchema, journalWithoutForeignKeysSchema, insertWithItemsSchema];

export const LATEST_SCHEMA_VERSION = migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0);
