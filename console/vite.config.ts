// Builds the web console into dist/console (served by the service at /console/). Run from the repo
// root as `vite build console`, after the service's build wrote dist/openapi.json (`npm run build`
// does both, in that order). No inline script or style, no data: URIs: the service's
// Content-Security-Policy allows scripts and styles from its own origin only.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

/**
 * The event names a webhook may subscribe to, read from the CreateWebhook schema of the service's own
 * OpenAPI document: the console reaches the service's code over HTTP only (never by import), and keeps
 * no second hand-written list of them.
 */
function webhookEventTypes(): string[] {
  const path = new URL('../dist/openapi.json', import.meta.url);
  let document: { components?: { schemas?: Record<string, { properties?: { events?: { items?: { enum?: unknown } } } }> } };
  try {
    document = JSON.parse(readFileSync(path, 'utf8')) as typeof document;
  } catch (cause) {
    throw new Error('dist/openapi.json is missing or unreadable: build the service first (`npm run build`)', { cause });
  }
  const names = document.components?.schemas?.CreateWebhook?.properties?.events?.items?.enum;
  if (!Array.isArray(names) || names.length === 0 || !names.every((name): name is string => typeof name === 'string')) {
    throw new Error('dist/openapi.json: CreateWebhook.events lists no event names');
  }
  return names;
}

export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  define: { __WEBHOOK_EVENT_TYPES__: JSON.stringify(webhookEventTypes()) },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
