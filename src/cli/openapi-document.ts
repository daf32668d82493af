// Produces the service's OpenAPI document without serving it, for the build (scripts/generate-client-
// types.mjs): the app is built from the built-in defaults (Development, anonymous, so no identity
// provider is needed; the MCP gateway on, so its metadata route is documented), made ready and asked for its document. Nothing listens and nothing is stored.
// It lives with the command line, like `serve`: the one other place that builds the whole app.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig } from '../platform/config/index.js';
import { createLogger } from '../platform/log/index.js';

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const cwd = await mkdtemp(join(tmpdir(), 'portcullis-openapi-'));
  try {
    const loaded = loadConfig({
      cwd,
      env: { PORTCULLIS_ENVIRONMENT: 'Development', AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true', AppConfig__AI__McpGateway__Enabled: 'true' },
      configFiles: [],
    });
    if (!loaded.ok) throw new Error(`the default configuration was refused:\n${loaded.problems.join('\n')}`);
    const { app } = await buildApp({ config: loaded.config, logger: createLogger({ level: 'silent' }), chatModel: null });
    try {
      await app.ready();
      return app.swagger() as unknown as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
