// README "Use a real model": each provider's environment block, taken from README.md as written, starts
// the Development host (`npm start`'s settings, the block's variables on top, exactly as the shell would
// pass them) with only the Endpoint's origin pointed at a loopback server speaking that provider's wire:
// the OpenAI-compatible fake for OpenAI and the local servers, the same fake held to Azure's routing and
// `api-key` header (it answers 401/404 as Azure would otherwise) for Azure OpenAI, the Anthropic fake
// for Anthropic. The trip-timer example asked the time must reach the provider with the agent's prompt
// and its tools, run the `clock` call the model asks for, send the result back, and answer with the
// model's text. No SDK is mocked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicText, startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { openAIText, startFakeOpenAIServer, type FakeOpenAIReply, type FakeRequest, type FakeServer } from '../helpers/fake-openai-server.js';
import { buildTestApp } from '../helpers/test-app.js';
import { listen } from './bundles-harness.js';
import { answerOf, developmentSettings, REPO, resultOf, streamExample, toolsCalled } from './example-bundles-harness.js';

const SECTION = '\n## Use a real model';
const QUESTION = 'What time is it in Tokyo?';
const ANSWER = 'It is 14:37 in Tokyo (Asia/Tokyo), Friday afternoon.';
const CLOCK_ARGS = ['{"operation":"now",', '"parameters":{"timeZone":"Asia/Tokyo"}}'];
/** The shell variables the blocks read their keys from, with the values this test exports. */
const KEYS: Record<string, string> = { OPENAI_API_KEY: 'sk-readme-openai', AZURE_OPENAI_API_KEY: 'azure-readme-key', ANTHROPIC_API_KEY: 'sk-ant-readme' };

interface Block {
  readonly label: string;
  readonly env: Record<string, string>;
}

let readme: string;
let dir: string;
beforeAll(async () => {
  readme = await readFile(join(REPO, 'README.md'), 'utf8');
  dir = await mkdtemp(join(tmpdir(), 'portcullis-readme-model-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function section(): string {
  const start = readme.indexOf(SECTION);
  if (start === -1) throw new Error('README.md has no "Use a real model" section');
  return readme.slice(start, readme.indexOf('\n## ', start + SECTION.length));
}

/** Each ```sh block that sets ChatModel:Provider, under the bold label before it, as the env it exports. */
function blocks(): Map<string, Block> {
  const found = new Map<string, Block>();
  for (const part of section().split('\n**').slice(1)) {
    const label = part.slice(0, part.indexOf('**'));
    const body = /```sh\n([\s\S]*?)```/.exec(part)?.[1] ?? '';
    if (!body.includes('AppConfig__AI__ChatModel__Provider=')) continue;
    const lines = body.trimEnd().split('\n');
    expect(lines.at(-1)!.trim(), `${label}: the block ends by starting the service`).toBe('npm start');
    const env: Record<string, string> = {};
    for (const line of lines.slice(0, -1)) {
      const assignment = /^(AppConfig__\w+)=(\S+) \\$/.exec(line);
      expect(assignment, `${label}: "${line}" is one NAME=value \\ line`).not.toBeNull();
      env[assignment![1]!] = assignment![2]!.replace(/^\$(\w+)$/, (_, name: string) => KEYS[name] ?? `<unset ${name}>`);
    }
    found.set(label, { label, env });
  }
  return found;
}

function block(prefix: string): Block {
  const found = [...blocks().values()].find((b) => b.label.startsWith(prefix));
  if (found === undefined) throw new Error(`no "${prefix}" block in README "Use a real model"`);
  return found;
}

/** The block with only its Endpoint's origin replaced by the fake's (the path the reader wrote is kept). */
function pointedAt(b: Block, fakeUrl: string): Record<string, string> {
  const endpoint = new URL(b.env.AppConfig__AI__ChatModel__Endpoint!);
  return { ...b.env, AppConfig__AI__ChatModel__Endpoint: `${fakeUrl}${endpoint.pathname.replace(/\/$/, '')}` };
}

/** Starts the Development host with `env`, asks trip-timer the time, and returns the run's frames. */
async function askTripTimer(env: Record<string, string>) {
  const t = await buildTestApp({ environment: 'Development', settings: await developmentSettings(dir), env });
  try {
    return await streamExample(t.app, await listen(t.app), dir, 'trip-timer', QUESTION);
  } finally {
    await t.close();
  }
}

/** What every provider must have been sent and answered, whatever its wire. */
async function expectToolLoop(fake: FakeServer<{ readonly type: string }>, env: Record<string, string>) {
  const frames = await askTripTimer(env);
  expect(toolsCalled(frames)).toEqual(['clock']);
  expect(resultOf(frames)).toContain('"timeZone":"Asia/Tokyo"');
  expect(answerOf(frames)).toBe(ANSWER);
  expect(frames.at(-1)!.type).toBe('RUN_FINISHED');
  expect(fake.requests).toHaveLength(2);
  const [first, second] = fake.requests.map((r) => JSON.stringify(r.body));
  expect(first).toContain('You are Trip timer');
  expect(first).toContain(QUESTION);
  expect(first).toContain('clock');
  expect(second).toContain('\\"local\\"');
  return fake.requests;
}

const openAIToolCall: FakeOpenAIReply = { type: 'stream', steps: [{ toolCall: { name: 'clock', argumentChunks: CLOCK_ARGS } }] };

describe('README "Use a real model"', () => {
  it('has a block for OpenAI, Azure OpenAI, Anthropic and a local server, each ending in npm start', () => {
    expect([...blocks().keys()].map((label) => label.split(' (')[0])).toEqual(['OpenAI', 'Azure OpenAI', 'Anthropic', 'A local OpenAI-compatible server']);
  });

  it('OpenAI: POST /v1/chat/completions with the bearer key and the model', async () => {
    const b = block('OpenAI');
    const fake = await startFakeOpenAIServer([openAIToolCall, openAIText(ANSWER)]);
    try {
      for (const request of await expectToolLoop(fake, pointedAt(b, fake.url))) {
        expect(request.path).toBe('/v1/chat/completions');
        expect(request.headers.authorization).toBe(`Bearer ${KEYS.OPENAI_API_KEY}`);
        expect(request.body).toMatchObject({ model: b.env.AppConfig__AI__ChatModel__Model, stream: true });
      }
    } finally {
      await fake.close();
    }
  });

  it("Azure OpenAI: the deployment's route with api-version and the api-key header, never a bearer", async () => {
    const b = block('Azure OpenAI');
    const deployment = b.env.AppConfig__AI__ChatModel__Model!;
    const version = b.env.AppConfig__AI__ChatModel__ApiVersion!;
    const replies = [openAIToolCall, openAIText(ANSWER)];
    // Azure's own answers to a request of the wrong shape: 401 without the key, 404 off the deployment's route.
    const azure = (_body: unknown, request: FakeRequest): FakeOpenAIReply => {
      if (request.headers['api-key'] !== KEYS.AZURE_OPENAI_API_KEY) return { type: 'error', status: 401, body: { error: { code: '401', message: 'Access denied due to invalid subscription key.' } } };
      if (request.path !== `/openai/deployments/${deployment}/chat/completions` || request.query['api-version'] !== version) {
        return { type: 'error', status: 404, body: { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } } };
      }
      return replies.shift() ?? { type: 'error', status: 400 };
    };
    const fake = await startFakeOpenAIServer(azure);
    try {
      for (const request of await expectToolLoop(fake, pointedAt(b, fake.url))) {
        expect(request.path).toBe(`/openai/deployments/${deployment}/chat/completions`);
        expect(request.query).toEqual({ 'api-version': version });
        expect(request.headers['api-key']).toBe(KEYS.AZURE_OPENAI_API_KEY);
        expect(request.headers).not.toHaveProperty('authorization');
      }
    } finally {
      await fake.close();
    }
  });

  it('Anthropic: POST /v1/messages with x-api-key, anthropic-version and the model', async () => {
    const b = block('Anthropic');
    const fake = await startFakeAnthropicServer([{ type: 'stream', steps: [{ toolCall: { name: 'clock', argumentChunks: CLOCK_ARGS } }] }, anthropicText(ANSWER)]);
    try {
      for (const request of await expectToolLoop(fake, pointedAt(b, fake.url))) {
        expect(request.path).toBe('/v1/messages');
        expect(request.headers['x-api-key']).toBe(KEYS.ANTHROPIC_API_KEY);
        expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(request.headers).not.toHaveProperty('authorization');
        expect(request.body).toMatchObject({ model: b.env.AppConfig__AI__ChatModel__Model, stream: true });
        expect(JSON.stringify(request.body.system)).toContain('You are Trip timer');
      }
    } finally {
      await fake.close();
    }
  });

  it('a local OpenAI-compatible server: the same wire, no key, and every listed Endpoint is a loopback /v1 base', async () => {
    const b = block('A local');
    expect(Object.keys(b.env).some((name) => name.endsWith('__ApiKey'))).toBe(false);
    const listed = [...section().matchAll(/^\| [^|]+ \| `(http:\/\/[^`]+)` \|$/gm)].map((m) => new URL(m[1]!));
    expect(listed.map((url) => url.hostname)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(new Set(listed.map((url) => url.pathname))).toEqual(new Set(['/v1']));
    expect(listed.map((url) => url.href)).toContain(`${b.env.AppConfig__AI__ChatModel__Endpoint}`);
    expect(listed.map((url) => url.port)).not.toContain('8080');
    const fake = await startFakeOpenAIServer([openAIToolCall, openAIText(ANSWER)]);
    try {
      for (const request of await expectToolLoop(fake, pointedAt(b, fake.url))) {
        expect(request.path).toBe('/v1/chat/completions');
        expect(request.headers).not.toHaveProperty('authorization');
        expect(request.body).toMatchObject({ model: b.env.AppConfig__AI__ChatModel__Model });
      }
    } finally {
      await fake.close();
    }
  });
});
