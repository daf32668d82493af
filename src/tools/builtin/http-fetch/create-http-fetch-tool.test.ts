import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Tool, ToolCallContext, ToolResult } from '../../tool.js';
import { createHttpFetchTool, type HostLookup, type HttpFetchToolOptions } from './index.js';

interface FetchOutput {
  readonly url: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly bodyEncoding: 'text' | 'base64';
  readonly truncated: boolean;
}
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

let server: Server;
let port: number;
let base: string;
let seen: Seen[] = [];
let onAbortRoute: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const redirect = (location: string): void => {
      response.writeHead(302, { location }).end();
    };
    switch (request.url) {
      case '/hello':
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '11' }).end('hello world');
        return;
      case '/missing':
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
        return;
      case '/big':
        response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
        return;
      case '/binary':
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255, 254]));
        return;
      case '/echo':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers));
        return;
      case '/redirect-ok':
        return redirect('/hello');
      case '/loop':
        return redirect('/loop');
      case '/to-evil':
        return redirect('http://evil.test/steal');
      case '/to-internal':
        return redirect(`http://internal.test:${port}/hello`);
      case '/to-file':
        return redirect('file:///etc/passwd');
      case '/to-other-origin':
        return redirect(`http://api.test:${port}/echo`);
      case '/abort':
        onAbortRoute();
        return; // never answers
      default:
        return; // '/hang' and anything else: never answers
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
});

/** A resolver for made-up names; anything else fails as an unknown name would. */
function fakeDns(answers: Record<string, string[]>, calls: string[] = []): HostLookup {
  return (hostname) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (addresses === undefined) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

function fetchTool(options: Partial<HttpFetchToolOptions> = {}): Tool {
  return createHttpFetchTool({ allowedHosts: ['127.0.0.1'], maxResponseBytes: 1024 * 1024, timeoutSeconds: 5, lookup: fakeDns({}), ...options });
}

const context = (signal = new AbortController().signal): ToolCallContext => ({ ownerId: 'oid:alice', signal });
const output = (result: ToolResult): FetchOutput => {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return JSON.parse(result.output) as FetchOutput;
};
const failure = (result: ToolResult): string => {
  if (result.ok) throw new Error(`expected failure, got: ${result.output}`);
  return result.error;
};

describe('http_fetch descriptor', () => {
  it('declares the flags of DESIGN §4 and strict schemas that ajv compiles', () => {
    const tool = fetchTool();
    expect(tool.descriptor).toMatchObject({
      name: 'http_fetch',
      riskTier: 'High',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: true,
    });
    const ajv = new Ajv2020({ strict: true });
    for (const operation of tool.descriptor.operations) {
      const validate = ajv.compile(operation.parameters);
      expect(validate({ url: 'https://example.com', headers: { 'x-a': 'b' } })).toBe(true);
      expect(validate({ url: 'https://example.com', method: 'POST' })).toBe(false);
      expect(validate({ url: 'https://example.com', headers: { 'bad name': 'b' } })).toBe(false);
      expect(validate({ headers: {} })).toBe(false);
    }
  });

  it('refuses an allowlist entry that is not a bare host at construction', () => {
    for (const entry of ['*.example.com', 'example.com:8080', 'example.com:80', '', 'http://example.com', 'exa mple.com']) {
      expect(() => fetchTool({ allowedHosts: [entry] })).toThrow(/AllowedHosts/);
    }
  });
});

describe('http_fetch against a loopback server', () => {
  it('fetches from an IP literal that is allowlisted, even though it is loopback', async () => {
    const result = output(await fetchTool().invoke('get', { url: `${base}/hello` }, context()));
    expect(result).toMatchObject({ url: `${base}/hello`, status: 200, body: 'hello world', bodyEncoding: 'text', truncated: false });
    expect(result.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('reports a non-2xx answer as a successful call carrying the status', async () => {
    expect(output(await fetchTool().invoke('get', { url: `${base}/missing` }, context()))).toMatchObject({ status: 404, body: 'not here' });
  });

  it('refuses a host that is not allowlisted without connecting', async () => {
    const error = failure(await fetchTool({ allowedHosts: ['example.com'] }).invoke('get', { url: `${base}/hello` }, context()));
    expect(error).toBe('The host "127.0.0.1" is not in Tools:HttpFetch:AllowedHosts.');
    expect(seen).toEqual([]);
  });

  it('refuses every fetch when the allowlist is empty', async () => {
    expect(failure(await fetchTool({ allowedHosts: [] }).invoke('get', { url: `${base}/hello` }, context()))).toMatch(/empty/);
    expect(seen).toEqual([]);
  });

  it('refuses loopback reached by name when only the name is allowlisted, using the real resolver', async () => {
    const tool = createHttpFetchTool({ allowedHosts: ['localhost'], maxResponseBytes: 1024, timeoutSeconds: 5 });
    expect(failure(await tool.invoke('get', { url: `http://localhost:${port}/hello` }, context()))).toMatch(/resolves to a private, loopback/);
    expect(failure(await tool.invoke('get', { url: `${base}/hello` }, context()))).toMatch(/not in Tools:HttpFetch:AllowedHosts/);
    expect(seen).toEqual([]);
  });

  it('connects to the address vetted by one DNS answer and keeps the name in Host', async () => {
    const calls: string[] = [];
    const tool = fetchTool({ allowedHosts: ['api.test', '127.0.0.1'], lookup: fakeDns({ 'api.test': ['127.0.0.1'] }, calls) });
    const result = output(await tool.invoke('get', { url: `http://API.test:${port}/echo` }, context()));
    expect(result.status).toBe(200);
    expect(seen[0]!.headers.host).toBe(`api.test:${port}`);
    expect(calls).toEqual(['api.test']);
  });

  it('refuses a name that resolves to a private address even when it is allowlisted (DNS rebinding)', async () => {
    const tool = fetchTool({ allowedHosts: ['rebind.test'], lookup: fakeDns({ 'rebind.test': ['10.0.0.7'] }) });
    const error = failure(await tool.invoke('get', { url: `http://rebind.test:${port}/hello` }, context()));
    expect(error).toBe('The host "rebind.test" resolves to a private, loopback, link-local or reserved address that is not allowed.');
    expect(error).not.toContain('10.0.0.7');
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const tool = fetchTool({ allowedHosts: ['mixed.test'], lookup: fakeDns({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] }) });
    expect(failure(await tool.invoke('get', { url: 'http://mixed.test/' }, context()))).toMatch(/private/);
  });

  it.each(['::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::a00:1', '169.254.169.254', '100.64.0.1'])(
    'refuses an allowlisted name resolving to %s',
    async (address) => {
      const tool = fetchTool({ allowedHosts: ['v6.test'], lookup: fakeDns({ 'v6.test': [address] }) });
      expect(failure(await tool.invoke('get', { url: 'http://v6.test/' }, context()))).toMatch(/private/);
    },
  );

  it('refuses IPv6 and IPv4-mapped literals unless that exact literal is listed', async () => {
    const tool = fetchTool({ allowedHosts: ['127.0.0.1', 'localhost'] });
    for (const url of [`http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::ffff:7f00:1]:${port}/`, `http://[0:0:0:0:0:0:0:1]:${port}/`]) {
      expect(failure(await tool.invoke('get', { url }, context()))).toMatch(/not in Tools:HttpFetch:AllowedHosts/);
    }
    expect(seen).toEqual([]);
  });

  it('treats other spellings of a listed IPv4 literal as that address', async () => {
    expect(output(await fetchTool().invoke('get', { url: `http://0x7f.0.0.1:${port}/hello` }, context())).body).toBe('hello world');
  });

  it('follows a redirect on an allowed host', async () => {
    const result = output(await fetchTool().invoke('get', { url: `${base}/redirect-ok` }, context()));
    expect(result).toMatchObject({ status: 200, body: 'hello world', url: `${base}/hello` });
  });

  it('refuses a redirect to a host that is not allowlisted at that hop, without naming it', async () => {
    const calls: string[] = [];
    const error = failure(await fetchTool({ lookup: fakeDns({}, calls) }).invoke('get', { url: `${base}/to-evil` }, context()));
    expect(error).toBe('Redirect refused: The redirect target is not in Tools:HttpFetch:AllowedHosts.');
    expect(calls).toEqual([]);
  });

  it('refuses a redirect to an allowlisted name that resolves to a private address', async () => {
    const tool = fetchTool({ allowedHosts: ['127.0.0.1', 'internal.test'], lookup: fakeDns({ 'internal.test': ['10.0.0.7'] }) });
    const error = failure(await tool.invoke('get', { url: `${base}/to-internal` }, context()));
    expect(error).toMatch(/^Redirect refused: The redirect target resolves to a private/);
    expect(seen.map((request) => request.url)).toEqual(['/to-internal']);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    expect(failure(await fetchTool().invoke('get', { url: `${base}/to-file` }, context()))).toMatch(/^Redirect refused: only http and https/);
  });

  it('stops a redirect loop after five redirects', async () => {
    expect(failure(await fetchTool().invoke('get', { url: `${base}/loop` }, context()))).toBe('Too many redirects (more than 5).');
    expect(seen).toHaveLength(6);
  });

  it('drops Authorization, but keeps other caller headers, when a redirect changes origin', async () => {
    const tool = fetchTool({ allowedHosts: ['127.0.0.1', 'api.test'], lookup: fakeDns({ 'api.test': ['127.0.0.1'] }) });
    // api.test resolves to loopback, which is listed as a literal, so the hop is allowed.
    const headers = { authorization: 'Basic abc', 'x-trace': 'abc' };
    const result = output(await tool.invoke('get', { url: `${base}/to-other-origin`, headers }, context()));
    const echoed = JSON.parse(result.body) as Record<string, string>;
    expect(seen[0]!.headers.authorization).toBe('Basic abc');
    expect(echoed.authorization).toBeUndefined();
    expect(echoed['x-trace']).toBe('abc');
    expect(echoed['accept-encoding']).toBe('identity');
  });

  it('cuts the body at maxResponseBytes and says it did', async () => {
    const result = output(await fetchTool({ maxResponseBytes: 1000 }).invoke('get', { url: `${base}/big` }, context()));
    expect(result.body).toBe('x'.repeat(1000));
    expect(result.truncated).toBe(true);
  });

  it('returns a binary body as base64', async () => {
    const result = output(await fetchTool().invoke('get', { url: `${base}/binary` }, context()));
    expect(result).toMatchObject({ bodyEncoding: 'base64', body: Buffer.from([0, 1, 2, 255, 254]).toString('base64') });
  });

  it('gives up when the server never answers within the timeout', async () => {
    const started = performance.now();
    const error = failure(await fetchTool({ timeoutSeconds: 0.2 }).invoke('get', { url: `${base}/hang` }, context()));
    expect(error).toBe('The request to "127.0.0.1" timed out after 0.2 s.');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('stops when the caller’s signal aborts', async () => {
    const controller = new AbortController();
    onAbortRoute = () => controller.abort();
    const error = failure(await fetchTool().invoke('get', { url: `${base}/abort` }, context(controller.signal)));
    expect(error).toBe('The request was cancelled.');
  });

  it('returns status and headers but no body for HEAD', async () => {
    const result = output(await fetchTool().invoke('head', { url: `${base}/hello` }, context()));
    expect(result).toMatchObject({ status: 200, body: '', truncated: false });
    expect(result.headers['content-length']).toBe('11');
    expect(seen[0]!.method).toBe('HEAD');
  });

  it.each(['ftp://127.0.0.1/file', 'file:///etc/passwd', 'data:text/plain,hi', 'javascript:alert(1)', 'gopher://127.0.0.1/'])('refuses the non-http URL %s', async (url) => {
    expect(failure(await fetchTool().invoke('get', { url }, context()))).toMatch(/only http and https|not a valid/);
  });

  it('refuses a URL carrying credentials', async () => {
    expect(failure(await fetchTool().invoke('get', { url: `http://user:pw@127.0.0.1:${port}/hello` }, context()))).toMatch(/user name or password/);
  });

  it('refuses headers that would change framing, routing or session, and malformed values', async () => {
    const tool = fetchTool();
    for (const headers of [{ Host: 'evil.test' }, { cookie: 'a=b' }, { 'Transfer-Encoding': 'chunked' }, { 'proxy-authorization': 'x' }, { 'x-a': 'b\r\nx-b: c' }, { 'X-A': '1', 'x-a': '2' }]) {
      expect(failure(await tool.invoke('get', { url: `${base}/echo`, headers }, context()))).toMatch(/header/);
    }
    expect(seen).toEqual([]);
  });

  it('reports a connection failure generically', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = failure(await fetchTool().invoke('get', { url: `http://127.0.0.1:${closedPort}/` }, context()));
    expect(error).toBe('The request to "127.0.0.1" failed: could not connect.');
  });

  it('reports an unresolvable allowlisted name without detail', async () => {
    const error = failure(await fetchTool({ allowedHosts: ['nowhere.test'] }).invoke('get', { url: 'http://nowhere.test/' }, context()));
    expect(error).toBe('The host "nowhere.test" could not be resolved.');
  });
});
