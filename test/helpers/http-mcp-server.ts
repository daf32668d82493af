// A real MCP server over Streamable HTTP on loopback (the SDK's own server, stateless: a fresh
// server and transport per POST), with one tool `echo`. Records every request's headers, so tests
// can see what the client sent along (traceparent).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface HttpMcpServer {
  readonly url: string;
  readonly headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    headers.push(req.headers);
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const server = new McpServer({ name: 'echo-server', version: '1.0.0' });
      server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    headers,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
