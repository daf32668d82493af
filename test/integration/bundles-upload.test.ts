// POST /api/bundles over HTTP: every status SPEC.md lists for it (201, 400, 401, 403, 429, 500), the
// multipart rules of DESIGN.md §10 (field `file`, streamed, 400 never 413), the staging-root overlap
// refusal, and a clean staging root after every refusal.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { ManualClock } from '../../src/platform/clock/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { noise } from '../fixtures/bundle-fixtures.js';
import { buildZip } from '../fixtures/zip-builder.js';
import { AGENT_MD, bundleSettings, bundleZip, listen, multipart, register } from './bundles-harness.js';

const KiB = 1024;
let base: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'portcullis-bundles-upload-'));
});
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
afterAll(async () => rm(base, { recursive: true, force: true }));

let roots = 0;
async function app(ai: Record<string, unknown> = {}, options: { clock?: ManualClock } = {}): Promise<{ t: TestApp; root: string }> {
  const root = join(base, `root-${++roots}`);
  const t = await buildTestApp({ settings: bundleSettings(root, ai), deps: options.clock ? { clock: options.clock } : {} });
  apps.push(t);
  return { t, root };
}

async function entriesOf(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

describe('POST /api/bundles', () => {
  it('201 returns an opaque handle, an expiresAt floor of now + HandleTtl and Location naming the handle', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const { t, root } = await app({ BundleExecution: { HandleTtl: '00:10:00' } }, { clock });
    const res = await register(t.app);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'handle']);
    expect(body.handle).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(body.expiresAt).toBe('2026-01-01T12:10:00.000Z');
    expect(res.headers.location).toBe(`/api/bundles/${body.handle}`);
    // The upload file is gone; one private staging directory holds the bundle.
    const staged = await entriesOf(root);
    expect(staged).toHaveLength(1);
    expect(staged[0]).toMatch(/^bundle-/);
    expect((await entriesOf(join(root, staged[0]!))).sort()).toEqual(['AGENT.md']);
  });

  it('answers the Location URL with 405 for any method but DELETE', async () => {
    const { t } = await app();
    const { handle } = (await register(t.app)).json();
    const res = await t.app.inject({ method: 'GET', url: `/api/bundles/${handle}` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('DELETE');
    expect(res.json().title).toBe('Method not allowed');
  });

  it('accepts an archive of exactly MaxArchiveBytes (inclusive) and falls back to the file name for the agent id', async () => {
    const agent = '---\ndescription: no id or name here\n---\nPrompt.\n';
    const small = bundleZip({ 'AGENT.md': agent });
    const { t } = await app({ BundleExecution: { MaxArchiveBytes: small.length } });
    const res = await register(t.app, {}, small, { filename: 'folder-agent.zip' });
    expect(res.statusCode).toBe(201);
  });

  describe('400', () => {
    it('refuses a body that is not multipart', async () => {
      const { t } = await app();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bundles',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ file: 'x' }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain('field named "file"');
    });

    it('refuses a multipart body whose file is in another field, or that has no file at all', async () => {
      const { t } = await app();
      expect((await register(t.app, {}, bundleZip(), { field: 'archive' })).statusCode).toBe(400);
      const boundary = 'b0undary';
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bundles',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain('field named "file"');
    });

    it('refuses a body carrying two files, even when the first is a valid bundle in the field "file", and leaves nothing staged', async () => {
      const { t, root } = await app();
      const boundary = 'tw0-files';
      const part = (name: string, zip: Buffer): Buffer =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.zip"\r\nContent-Type: application/zip\r\n\r\n`),
          zip,
          Buffer.from('\r\n'),
        ]);
      for (const second of ['file', 'other']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/bundles',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload: Buffer.concat([part('file', bundleZip()), part(second, bundleZip()), Buffer.from(`--${boundary}--\r\n`)]),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ title: 'Validation failed', detail: expect.stringContaining('exactly one file') });
      }
      expect(await entriesOf(root)).toEqual([]);
      // One file beside ordinary fields is still fine.
      const ok = await t.app.inject({
        method: 'POST',
        url: '/api/bundles',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
          part('file', bundleZip()),
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="after"\r\n\r\nbye\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(ok.statusCode).toBe(201);
    });

    it('answers at once (400) when a large second file or many parts follow the archive over a real connection', async () => {
      const { t, root } = await app();
      const url = await listen(t.app);
      const post = async (extra: (form: FormData) => void): Promise<Response> => {
        const form = new FormData();
        form.append('file', new Blob([bundleZip()]), 'bundle.zip');
        extra(form);
        return fetch(`${url}/api/bundles`, { method: 'POST', body: form, signal: AbortSignal.timeout(4000) });
      };
      const big = await post((form) => form.append('second', new Blob([noise(1024 * KiB)]), 'second.bin'));
      expect(big.status).toBe(400);
      expect(((await big.json()) as { detail: string }).detail).toContain('exactly one file');
      const many = await post((form) => {
        for (let i = 0; i < 40; i += 1) form.append(`f${i}`, new Blob([noise(64 * KiB, i + 1)]), `f${i}.bin`);
      });
      expect(many.status).toBe(400);
      await many.body?.cancel();
      const fields = await post((form) => {
        for (let i = 0; i < 40; i += 1) form.append(`note${i}`, 'x'.repeat(4 * KiB));
      });
      expect(fields.status).toBe(201);
      expect((await entriesOf(root)).filter((name) => name.startsWith('upload-'))).toEqual([]);
    });

    it('refuses a malformed multipart body without leaking parser text', async () => {
      const { t } = await app();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bundles',
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
        payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\n\r\nPK truncated',
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
    });

    it.each([
      ['empty', Buffer.alloc(0)],
      ['not-a-zip', Buffer.from('this is plainly not a zip archive, just some text that is long enough')],
      ['missing-agent-manifest', bundleZip({ 'README.md': 'hello' })],
      ['unresolvable-agent-id', bundleZip({ 'AGENT.md': 'no front matter at all' })],
      ['zip-slip', buildZip({ entries: [{ name: 'AGENT.md', data: AGENT_MD }, { name: '../escape.txt', data: 'x' }] })],
    ])('refuses the %s guard with its fixed detail and leaves the staging root empty', async (guard, zip) => {
      const { t, root } = await app();
      const res = await register(t.app, {}, zip);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: 'Validation failed', detail: expect.stringContaining(`the ${guard} guard`) });
      expect(await entriesOf(root)).toEqual([]);
    });

    it('refuses a tiny zip whose AGENT.md front matter nests 20,000 deep before the YAML parser sees it, saying why', async () => {
      const { t, root } = await app();
      const zip = bundleZip({ 'AGENT.md': `---\nid: deep\nskills: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\nBody.\n` });
      expect(zip.length).toBeLessThan(1024);
      const res = await register(t.app, {}, zip);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ detail: string }>().detail).toContain('the invalid-agent-manifest guard');
      expect(res.json<{ detail: string }>().detail).toContain('(the front matter nests deeper than 32 levels)');
      expect(await entriesOf(root)).toEqual([]);
    });

    it('refuses a file over MaxArchiveBytes as the too-large guard (400, never 413), streamed without a Content-Length', async () => {
      const { t, root } = await app({ BundleExecution: { MaxArchiveBytes: 4 * KiB } });
      const zip = buildZip({ entries: [{ name: 'AGENT.md', data: AGENT_MD }, { name: 'big.bin', data: noise(8 * KiB), method: 0 }] });
      const body = multipart(zip);
      const url = await listenOnce(t);
      const res = await fetch(`${url}/api/bundles`, {
        method: 'POST',
        headers: body.headers,
        body: chunked(body.payload),
        duplex: 'half',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain('the too-large guard');
      expect(await entriesOf(root)).toEqual([]);
    });

    it('refuses a declared Content-Length beyond MaxArchiveBytes + 64 KiB before reading the body', async () => {
      const { t } = await app({ BundleExecution: { MaxArchiveBytes: 4 * KiB } });
      const body = multipart(bundleZip(), { epilogue: Buffer.alloc(70 * KiB, 0x20) });
      const res = await register(t.app, {}, bundleZip(), { epilogue: Buffer.alloc(70 * KiB, 0x20) });
      expect(body.payload.length).toBeGreaterThan(4 * KiB + 64 * KiB);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain('the too-large guard');
      expect(res.headers.connection).toBe('close');
    });

    it('lets the multipart envelope exceed MaxArchiveBytes by up to 64 KiB, and no further, when the length is not declared', async () => {
      const zip = bundleZip();
      const { t } = await app({ BundleExecution: { MaxArchiveBytes: zip.length } });
      const url = await listenOnce(t);
      const send = (epilogueBytes: number) => {
        const body = multipart(zip, { epilogue: Buffer.alloc(epilogueBytes, 0x20) });
        return fetch(`${url}/api/bundles`, { method: 'POST', headers: body.headers, body: chunked(body.payload), duplex: 'half' });
      };
      expect((await send(60 * KiB)).status).toBe(201);
      const refused = await send(80 * KiB);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toContain('the too-large guard');
    });

    it('refuses to stage when TempRoot overlaps an agent or skill discovery path', async () => {
      const overlap = join(base, 'shared-root');
      await mkdir(join(overlap, 'agents'), { recursive: true });
      for (const paths of [{ Agents: { DiscoveryPaths: [join(overlap, 'agents')] } }, { Skills: { DiscoveryPaths: [overlap] } }]) {
        const t = await buildTestApp({ settings: merge(bundleSettings(overlap), { AppConfig: { AI: paths } }) });
        apps.push(t);
        const res = await register(t.app);
        expect(res.statusCode).toBe(400);
        expect(res.json().detail).toContain('TempRoot overlaps');
      }
      expect(await entriesOf(overlap)).toEqual(['agents']);
    });
  });

  it('401 without a valid bearer token when authentication is configured', async () => {
    const idp: DevIdp = await startTestIdp();
    try {
      const t = await buildTestApp({ environment: 'Production', settings: idpSettings(idp, { BundleExecution: { Enabled: true } }) });
      apps.push(t);
      const none = await register(t.app);
      const bad = await register(t.app, bearer('not-a-token'));
      for (const res of [none, bad]) expect(res.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect((await register(t.app, bearer(await idp.mintToken({ sub: 'alice' })))).statusCode).toBe(201);
    } finally {
      await idp.close();
    }
  });

  it('429 beyond the bundles-register rate (10 per minute by default) with Retry-After', async () => {
    const root = join(base, 'rate-root');
    const t = await buildTestApp({
      settings: merge(bundleSettings(root), { AppConfig: { AI: { RateLimits: { 'bundles-register': { PermitsPerMinute: 10 } } } } }),
    });
    apps.push(t);
    for (let i = 0; i < 10; i += 1) expect((await register(t.app)).statusCode).toBe(201);
    const res = await register(t.app);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('500 with the generic body when the staging root cannot be created, the cause only in the log', async () => {
    const blocked = join(base, 'a-file-not-a-dir');
    await writeFile(blocked, 'occupied');
    const t = await buildTestApp({ settings: bundleSettings(join(blocked, 'staging')) });
    apps.push(t);
    const res = await register(t.app);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      type: 'urn:portcullis:problem:internal',
      title: 'Bundle operation failed',
      status: 500,
      detail: 'An unexpected error occurred. The host log has the details.',
      instance: '/api/bundles',
      traceId: res.headers['x-request-id'],
    });
  });
});

/** Listens on loopback for requests that must travel over a real socket (chunked uploads). */
async function listenOnce(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** The payload as a stream of 16 KiB chunks, so fetch sends it chunked with no Content-Length. */
function chunked(payload: Buffer): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= payload.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(payload.subarray(offset, offset + 16 * KiB)));
      offset += 16 * KiB;
    },
  });
}
