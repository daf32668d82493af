import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIo, refusedUsage } from '../../../test/helpers/remote-io.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { mcpClientConfigs, runMcpCommand } from './run-mcp.js';

describe('portcullis mcp config', () => {
  it('names the token by its environment variable in every client’s file, never by value', () => {
    const configs = mcpClientConfigs('http://127.0.0.1:8080/mcp', true);
    expect(configs['claude-code']).toEqual({ mcpServers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${PORTCULLIS_TOKEN}' } } } });
    expect(configs.cursor).toEqual({ mcpServers: { portcullis: { url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${env:PORTCULLIS_TOKEN}' } } } });
    expect(configs.vscode).toEqual({
      inputs: [{ type: 'promptString', id: 'portcullis-token', description: 'Portcullis bearer token', password: true }],
      servers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${input:portcullis-token}' } } },
    });
  });

  it('sends no header in anonymous mode (no token)', () => {
    const configs = mcpClientConfigs('http://127.0.0.1:8080/mcp', false);
    expect(JSON.stringify(configs)).not.toContain('Authorization');
    expect(configs.vscode).toEqual({ servers: { portcullis: { type: 'http', url: 'http://127.0.0.1:8080/mcp' } } });
  });

  it('refuses an unknown client, an argument, and an unknown subcommand before asking the service', async () => {
    expect(await refusedUsage(runMcpCommand, ['config', '--client', 'emacs'])).toContain('--client must be one of claude-code, cursor, vscode');
    expect(await refusedUsage(runMcpCommand, ['config', 'extra'])).toContain("unexpected argument 'extra'");
    expect(await refusedUsage(runMcpCommand, ['configure'])).toContain("unknown subcommand 'configure'");
  });

  describe('against a service with the gateway off', () => {
    let t: TestApp;
    let url: string;
    beforeAll(async () => {
      // Production's default: the gateway is off.
      t = await buildTestApp({ environment: 'Production', settings: { AppConfig: { AI: { BundleExecution: { Auth: { AllowAnonymous: true } } } } } });
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => t.close());

    it('says the gateway is off and exits 3', async () => {
      const io = recordingIo({ PORTCULLIS_URL: url });
      expect(await runMcpCommand(['config'], io)).toBe(3);
      expect(io.out).toEqual([]);
      expect(io.err).toEqual([`portcullis mcp config: the MCP gateway is off on ${url} (AppConfig:AI:McpGateway:Enabled is false)`]);
    });
  });
});
