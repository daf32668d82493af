// The floor under a benchmark that makes model calls: `calls` streamed Chat Completions requests, at
// most `parallelism` at once, from a bare node:http client with a keep-alive agent (no service, no
// parsing beyond reading each body to its end) against the same fake model. What this takes over the
// ideal is the fake's, the loopback's and the machine's, not the service's.
import { Agent, request } from 'node:http';

// bareClient(url) → { run(calls, parallelism) → wall ms, close() }; its connections stay open between
// runs, as the service's do.
export function bareClient(url) {
  const target = new URL('/v1/chat/completions', url);
  const agent = new Agent({ keepAlive: true });
  const body = JSON.stringify({ model: 'bench', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'ping' }] });
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.on('error', reject);
        res.on('end', resolve);
        res.resume();
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    async run(calls, parallelism) {
      let started = 0;
      const begin = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(parallelism, calls) }, async () => {
          while (started < calls) {
            started += 1;
            await one();
          }
        }),
      );
      return performance.now() - begin;
    },
    close: () => agent.destroy(),
  };
}
