// vitest globalSetup: one embedded PostgreSQL server for the whole test run (about a second to
// start), its URL provided to test files as `postgresUrl`; each file works in a schema of its own
// (freshPostgres in ./postgres.ts), so files run in parallel without sharing state. Stopped and its
// data directory removed at teardown.
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded-postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startEmbeddedPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.destroy();
}
