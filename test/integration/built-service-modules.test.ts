// The built service (dist/, as `npm start` runs it) loads one bundle where a package would load
// hundreds of modules, and nothing a Memory service does not use (decision 3605; issue 36's streams
// row). A module-load hook records every ES module the process loads while it serves the trip-timer
// example against a real OpenAI-compatible server on loopback: the model's streamed tool call is
// assembled by the bundled tracker, the clock tool answers through the bundled Temporal polyfill, and
// the request schemas come from the bundled TypeBox. Those calls must work, and the packages' own
// files must never load.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, startServe } from '../helpers/cli-process.js';
import { openAIText, startFakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { REPO } from './example-bundles-harness.js';

const QUESTION = 'What time is it in Tokyo?';
const ANSWER = 'It is 14:37 in Tokyo.';
/** Each module's URL as the loader loads it, appended to the file named by PORTCULLIS_TEST_LOADS. */
const HOOK = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.PORTCULLIS_TEST_LOADS, url + '\\\\n');
  return next(url, context);
}\`));
`;
/** Packages whose runtime reaches the service only as a vendor bundle, and packages a Memory service without the MCP gateway never needs. */
const NEVER_LOADED = ['typebox', 'jose', 'temporal-polyfill', '@marcbachmann/cel-js', '@ai-sdk/provider-utils', 'zod', 'pg'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-built-modules-'));
  await writeFile(join(dir, 'trace-loads.mjs'), HOOK);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('the built service', () => {
  it('runs a streamed tool call and the clock tool from its vendor bundles, and never loads TypeBox, jose, zod, pg or the other bundled packages', async () => {
    const loads = join(dir, 'loads.txt');
    const fake = await startFakeOpenAIServer([
      { type: 'stream', steps: [{ toolCall: { name: 'clock', argumentChunks: ['{"operation":"now",', '"parameters":{"timeZone":"Asia/Tokyo"}}'] } }] },
      openAIText(ANSWER),
    ]);
    const served = await startServe({
      cwd: REPO,
      env: {
        PORTCULLIS_ENVIRONMENT: 'Development',
        NODE_OPTIONS: `--import=${join(dir, 'trace-loads.mjs')}`,
        PORTCULLIS_TEST_LOADS: loads,
        AppConfig__Logging__Level: 'warn',
        AppConfig__AI__McpGateway__Enabled: 'false',
        AppConfig__AI__ChatModel__Provider: 'OpenAI',
        AppConfig__AI__ChatModel__Endpoint: `${fake.url}/v1`,
        AppConfig__AI__ChatModel__ApiKey: 'sk-built-service',
        AppConfig__AI__ChatModel__Model: 'gpt-4o-mini',
      },
    });
    try {
      const run = await runCliInProcess(['bundle', 'run', join(REPO, 'examples', 'bundles', 'trip-timer'), '--message', QUESTION, '--url', served.url], { cwd: dir, env: {} });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(ANSWER);
      expect(fake.requests).toHaveLength(2);
      // The tool call was assembled from its two argument chunks, and the clock's Temporal answer went back.
      expect(JSON.stringify(fake.requests[1]!.body)).toContain('\\"timeZone\\":\\"Asia/Tokyo\\"');
      expect(JSON.stringify(fake.requests[1]!.body)).toContain('\\"local\\"');
    } finally {
      expect(await served.stop()).toBe(0);
      await fake.close();
    }

    const urls = (await readFile(loads, 'utf8')).trim().split('\n');
    const vendor = urls.filter((url) => url.includes('/dist/src/platform/vendor/')).map((url) => url.slice(url.lastIndexOf('/') + 1));
    expect(vendor.sort()).toEqual(['ai-sdk-provider-utils.js', 'cel.js', 'jose.js', 'temporal.js', 'typebox.js']);
    for (const name of NEVER_LOADED) expect(urls.filter((url) => url.includes(`/node_modules/${name}/`)), name).toEqual([]);
  });
});
