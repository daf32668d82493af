// Bundle helpers shared by the bundle benchmarks: a minimal bundle archive, registration over HTTP
// (multipart, as a client sends it), starting a run and waiting for it to finish.
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export const AGENT_MD = '---\nid: bench-agent\nname: Bench agent\n---\nYou answer briefly.\n';

/** A one-file bundle (AGENT.md) as zip bytes. */
export async function smallBundle(work) {
  const path = join(work, 'small.zip');
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(AGENT_MD), 'AGENT.md');
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return readFile(path);
}

/** POST /api/bundles (multipart/form-data, one `file` part); resolves with the handle. */
export async function register(url, bytes, headers = {}) {
  const boundary = '----portcullis-bench';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${url}/api/bundles`, { method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
  return (await res.json()).handle;
}

/** POST …/runs; resolves with the start-run answer (jobId, statusUrl, streamUrl when streaming). */
export async function startRun(url, handle, { stream = false, headers = {}, userMessages = ['go'] } = {}) {
  const res = await fetch(`${url}/api/bundles/${handle}/runs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ userMessages, stream }),
  });
  if (res.status !== 202) throw new Error(`start-run answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Polls a run's status URL until it leaves Queued/Running; resolves with the final body text. */
export async function waitForRun(url, statusUrl, headers = {}) {
  for (;;) {
    const res = await fetch(`${url}${statusUrl}`, { headers });
    const text = await res.text();
    const { status } = JSON.parse(text);
    if (status !== 'Queued' && status !== 'Running') return text;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * `count` callers of one server, each with its own token (minted by `idp`), a registered `bundle` and a
 * finished run: `{ path, headers, body }`, path being the run's status URL and body its final answer.
 */
export function finishedRunCallers(url, idp, bundle, count) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const headers = { authorization: `Bearer ${await idp.mintToken({ sub: `bench-user-${i}` }, { ttlSeconds: 3600 })}` };
      const handle = await register(url, bundle, headers);
      const { statusUrl } = await startRun(url, handle, { headers });
      const body = await waitForRun(url, statusUrl, headers);
      if (JSON.parse(body).status !== 'Succeeded') throw new Error(`run did not succeed: ${body}`);
      return { path: statusUrl, headers, body };
    }),
  );
}
