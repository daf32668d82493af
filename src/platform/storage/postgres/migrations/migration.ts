// One schema migration: a version (applied in ascending order, recorded in schema_migrations), a
// name for the record, and its SQL written against the deployment's schema. Migrations are embedded
// in the build (no loose .sql files) and never edited once released: a change is a new version.
import type { SchemaNames } from '../schema-names.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  sql(names: SchemaNames): string;
}
