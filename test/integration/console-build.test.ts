// The built console (dist/console, made by `npm run build`): within its JavaScript budget and free of
// anything the Content-Security-Policy would have to allow (inline scripts or styles, data: URIs,
// third-party URLs). It also checks that the service serves that build.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConsoleRoot } from '../../src/console/console-root.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

export const JS_BUDGET_GZIPPED_BYTES = 250 * 1024;
const root = defaultConsoleRoot();

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

async function builtFiles(): Promise<string[]> {
  return (await readdir(root, { recursive: true })).map(String);
}

describe('the built console', () => {
  it('ships at most 250 KiB of gzipped JavaScript, all of it', async () => {
    const scripts = (await builtFiles()).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const file of scripts) total += gzipSync(await readFile(join(root, file)), { level: 9 }).length;
    expect(total).toBeLessThanOrEqual(JS_BUDGET_GZIPPED_BYTES);
  });

  it('has no inline script or style and loads nothing from another origin', async () => {
    const html = await readFile(join(root, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const file of (await builtFiles()).filter((name) => /\.(js|css|html)$/.test(name))) {
      const text = await readFile(join(root, file), 'utf8');
      expect(text, file).not.toMatch(/\burl\(\s*["']?(https?:|\/\/|data:)/);
      expect(text, file).not.toMatch(/<(script|link)[^>]+(src|href)=["']?(https?:)?\/\//);
    }
  });

  it('is what the service serves at /console/', async () => {
    const page = await app.app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(await readFile(join(root, 'index.html'), 'utf8'));
  });
});
