// What every browser test of the console shares: the real service listening on loopback (serving the
// built console), one headless Debian Chromium per test file driven by playwright-core, pages that
// record Content-Security-Policy violations and page errors, an axe-core scan, and opt-in screenshots
// (PORTCULLIS_SCREENSHOTS=DIR, used by `npm run console:screenshots` for the README).
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { buildApp, type AppDependencies } from '../../src/app.js';
import { createLogger } from '../../src/platform/log/index.js';
import { defaultConsoleRoot } from '../../src/console/console-root.js';
import { loadTestConfig } from '../helpers/test-app.js';
import type { App } from '../../src/platform/http/index.js';
import { findChromium } from './find-chromium.js';

export interface ConsoleServer {
  readonly app: App;
  /** Origin, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** What a test may put in the app beside its configuration (a fake clock, stepped schedule ticks). */
export type ServerDependencies = Pick<AppDependencies, 'clock' | 'scheduleTicks'>;

export async function startConsoleServer(settings: Record<string, unknown>, environment = 'Development', deps: ServerDependencies = {}): Promise<ConsoleServer> {
  if (!existsSync(join(defaultConsoleRoot(), 'index.html'))) throw new Error('dist/console is missing: run `npm run build` before the browser tests');
  const { config, dir } = await loadTestConfig({ settings, environment });
  const { app } = await buildApp({ ...deps, config, logger: createLogger({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error('no Chromium');
  // playwright-core gives each launch a fresh temporary profile.
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export interface WatchedPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** CSP violations seen in the page (blocked inline script, eval, foreign connections…). */
  readonly violations: () => Promise<string[]>;
  /** Uncaught exceptions thrown in the page. */
  readonly errors: string[];
  /** Requests that left the service's origin (and the identity provider's, when given). */
  readonly foreignRequests: string[];
}

/** `contextOptions` adds to the defaults (a `timezoneId` and `locale` to read times in, say). */
export async function openPage(browser: Browser, origins: readonly string[], contextOptions: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true, ...contextOptions });
  // Runs in the page (DOM types are not in this Node project's program, hence the narrow casts).
  await context.addInitScript(() => {
    const seen: string[] = [];
    const page = globalThis as unknown as PageGlobals;
    page.__cspViolations = seen;
    page.document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!origins.includes(url.origin) && url.protocol !== 'blob:' && url.protocol !== 'data:') foreignRequests.push(request.url());
  });
  return {
    context,
    page,
    errors,
    foreignRequests,
    violations: () => page.evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations ?? []),
  };
}

/** What the page scripts of these tests touch in the browser. */
export interface PageGlobals {
  __cspViolations?: string[];
  __xss?: number;
  readonly document: {
    addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
  };
}

export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly nodes: number;
}

/** Serious and critical axe-core findings on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousA11yViolations(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  if (process.env.PORTCULLIS_AXE_REPORT === '1') {
    // Every finding of any impact, one line per page, for reports (the assertion is on serious/critical).
    const found = results.violations.map((violation) => `${violation.id}:${violation.impact ?? '?'}×${violation.nodes.length}`);
    console.log(`axe ${new URL(page.url()).hash || new URL(page.url()).pathname}: ${results.passes.length} rules passed; ${found.join(', ') || 'no findings'}`);
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
}

/** The problem the page shows inside its form (a refused create), once it is there: its text. */
export async function formProblem(page: Page): Promise<string> {
  const problem = page.locator('form').getByRole('alert');
  await problem.waitFor();
  return (await problem.textContent()) ?? '';
}

/** Saves a screenshot for the README when PORTCULLIS_SCREENSHOTS names a folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.PORTCULLIS_SCREENSHOTS;
  if (folder === undefined || folder === '') return;
  const dir = resolve(folder);
  await mkdir(dir, { recursive: true });
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/** Development settings the scenarios share: anonymous, the Scripted model, the example datasets. */
export const DEV_SETTINGS = {
  AppConfig: {
    AI: {
      BundleExecution: {
        Enabled: true,
        Auth: { AllowAnonymous: true },
        Envelopes: { Default: { AllowedTools: ['clock', 'calculator', 'json', 'text', 'memory'], AutonomyCeiling: 'Autonomous' } },
      },
      DirectToolInvocation: { Enabled: true },
      McpGateway: { Enabled: true },
      Evaluation: { Enabled: true, DatasetRoots: [resolve('examples/evals')] },
      ChatModel: { Provider: 'Scripted' },
    },
  },
};
