// A surface the host has switched off still answers its paths, with the status its contract gives
// (404 for the MCP gateway and A2A, DESIGN §15 and §20) and a problem naming the switch, so a person
// who expected it learns why instead of meeting a bare "Not found" (issue 42). Public: the switch is
// host configuration, the same for every caller, and no token is needed to learn that nothing is here.
import { ProblemError } from '../problems/index.js';
import type { App } from './app-type.js';

export function registerSwitchedOff(app: App, urls: readonly string[], detail: string): void {
  for (const url of urls) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      config: { public: true },
      schema: { hide: true },
      handler: async () => {
        throw new ProblemError('not-found', detail);
      },
    });
  }
}
