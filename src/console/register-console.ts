// Serves the web console (DESIGN §12): the built files under /console/ from the same origin, its
// public sign-in document at /console/config.json, and `/` → /console/. Every response of this scope
// carries the console's security headers. It adds no API route and reads no credential: the console
// calls the same /api routes, under the same guards, as any other client.
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../platform/http/index.js';
import type { AppConfig } from '../platform/config/types.js';
import { authorityOrigin, consoleConfig } from './console-config.js';
import { consoleSecurityHeaders } from './content-security-policy.js';
import { defaultConsoleRoot } from './console-root.js';

export const CONSOLE_PATH = '/console/';

export interface ConsoleOptions {
  readonly config: Pick<AppConfig, 'bundleExecution' | 'console'>;
  /** Folder of the built console (default: dist/console under the package root). */
  readonly root?: string;
}

export async function registerConsole(app: App, options: ConsoleOptions): Promise<void> {
  const root = options.root ?? defaultConsoleRoot();
  const publicConfig = consoleConfig(options.config);
  const assets = join(root, 'assets');
  const headers = consoleSecurityHeaders(authorityOrigin(publicConfig.auth));
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'the web console is not built (run `npm run build`); /console answers 404');
  }

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(CONSOLE_PATH, 302));

  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(headers);
    });
    scope.get(`${CONSOLE_PATH}config.json`, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(publicConfig),
    );
    await scope.register(fastifyStatic, {
      root,
      prefix: CONSOLE_PATH,
      redirect: true,
      // One route per built file (the build is fixed while the service runs): a missing file is then a
      // plain 404, not a 405 from the catch-all.
      wildcard: false,
      index: ['index.html'],
      dotfiles: 'ignore',
      decorateReply: false,
      suppressWarning: true,
      cacheControl: false,
      // Built assets carry a content hash in their name: cache them for good; the page itself is
      // revalidated so a new build is picked up at once.
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
}
