// The MCP client SDK loads only when a server is configured (decision 3602). A fresh Node process runs
// the sources through tsx with a resolve hook that prints every module it resolves from the SDK, builds
// a manager for the given servers and closes it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const manager = fileURLToPath(new URL('./mcp-server-manager.ts', import.meta.url));
const hooks = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('@modelcontextprotocol')) process.stderr.write('SDK ' + resolved.url + '\\n');
  return resolved;
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;

async function resolvesSdk(servers: Record<string, unknown>): Promise<boolean> {
  const probe = `
    const { McpServerManager } = await import(${JSON.stringify(manager)});
    const log = { info() {}, warn() {}, error() {}, debug() {} };
    const mcp = new McpServerManager(${JSON.stringify(servers)}, { callTimeoutMs: 1000, log });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await mcp.close();
  `;
  const args = ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--import', 'tsx', '--input-type=module', '--eval', probe];
  const { stderr } = await run(process.execPath, args, { cwd: fileURLToPath(new URL('../../..', import.meta.url)), timeout: 60_000 });
  return stderr.includes('SDK ');
}

describe('the MCP client SDK', () => {
  it('is not loaded by a service with no MCP server configured', async () => {
    expect(await resolvesSdk({})).toBe(false);
  }, 90_000);

  it('is loaded once a server is configured', async () => {
    expect(await resolvesSdk({ everything: { Transport: 'stdio', Command: 'node', Arguments: ['-e', ''] } })).toBe(true);
  }, 90_000);
});
