import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchErrorMessage } from './fetch-error-message.js';
import { sendRequest } from './send-request.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function selfSignedCertificate(name: string): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const request = (url: string, host: string) => ({
  url: new URL(url),
  method: 'GET' as const,
  headers: {},
  host,
  address: '127.0.0.1',
  family: 4 as const,
  maxBytes: 1024,
  signal: new AbortController().signal,
});

describe('sendRequest', () => {
  it('connects to the pinned address whatever the name, and sends the name as Host', async () => {
    let host: string | undefined;
    const port = await listen(createHttpServer((req, res) => {
      host = req.headers.host;
      res.end('pinned');
    }));
    const response = await sendRequest(request(`http://does-not-resolve.invalid:${port}/`, 'does-not-resolve.invalid'));
    expect(response.body.toString()).toBe('pinned');
    expect(host).toBe(`does-not-resolve.invalid:${port}`);
  });

  const tls = selfSignedCertificate('secure.test');
  it.skipIf(tls === undefined)('keeps the name for TLS SNI and refuses a certificate it cannot verify', async () => {
    let servername: string | undefined;
    const server = createHttpsServer({
      ...tls,
      SNICallback: (name, callback) => {
        servername = name;
        callback(null);
      },
    });
    const port = await listen(server);
    const error = await sendRequest(request(`https://secure.test:${port}/`, 'secure.test')).catch((e: unknown) => e);
    expect(servername).toBe('secure.test');
    expect(fetchErrorMessage(error, { host: 'secure.test', cancelled: false, timedOut: false, timeoutSeconds: 1 })).toBe(
      'The request to "secure.test" failed: the TLS connection could not be established or verified.',
    );
  });
});
