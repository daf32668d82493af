// The Anthropic and Azure OpenAI SDKs load at a configured model's first call, never for another
// provider (decision 3602). A fresh Node process runs the sources through tsx with a resolve hook that
// prints every module it resolves from those SDKs, and configures the given model.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const factory = fileURLToPath(new URL('./create-chat-model.ts', import.meta.url));
const config = fileURLToPath(new URL('../../test/helpers/chat-model-config.ts', import.meta.url));
const hooks = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/@ai-sdk\\/(anthropic|azure)\\//.test(resolved.url)) process.stderr.write('SDK ' + resolved.url + '\\n');
  return resolved;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;

/** Whether configuring this model (and, with `call`, starting one call of it) resolved either SDK. */
async function resolvesSdk(settings: Record<string, unknown>, call: boolean): Promise<boolean> {
  const probe = `
    const { createChatModel } = await import(${JSON.stringify(factory)});
    const { chatModelConfig } = await import(${JSON.stringify(config)});
    const log = { info() {}, warn() {}, error() {}, debug() {} };
    const model = createChatModel(chatModelConfig(${JSON.stringify(settings)}), { log });
    if (${call}) {
      const controller = new AbortController();
      const stream = model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      try { for await (const part of stream) void part; } catch {}
    }
  `;
  const args = ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--import', 'tsx', '--input-type=module', '--eval', probe];
  const { stderr } = await run(process.execPath, args, { cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 60_000 });
  return stderr.includes('SDK ');
}

const anthropic = { provider: 'Anthropic', endpoint: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' };

describe('the provider SDKs', () => {
  it('are not loaded by an OpenAI model, nor by an Anthropic model that was configured but not called', async () => {
    expect(await resolvesSdk({ provider: 'OpenAI', endpoint: 'http://127.0.0.1:9/v1', model: 'm' }, true)).toBe(false);
    expect(await resolvesSdk(anthropic, false)).toBe(false);
  }, 120_000);

  it('are loaded at the configured model’s first call', async () => {
    expect(await resolvesSdk(anthropic, true)).toBe(true);
  }, 120_000);
});
