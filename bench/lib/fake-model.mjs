// A minimal OpenAI-compatible Chat Completions server for the bundle benchmark (plain JS, loopback):
// `paced` replies stream N text chunks at a fixed interval and record their own stream duration
// (startFakeModelProcess in fake-model-process.mjs runs one in a child process of its own);
// `held` replies send one chunk and hold the connection until release() (for open-stream counts);
// `waitBefore(fn)` makes each paced reply wait fn(request) ms before its first chunk (a slow model for
// some callers, a fast one for others).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';

export async function startFakeModel() {
  const words = (index) => `word${index} `;
  let mode = { kind: 'paced', chunks: 100, intervalMs: 5, text: words };
  const durations = [];
  const held = new Set();
  let heldWaiters = [];
  let counter = 0;
  let waitFor = () => 0;

  const server = createServer((req, res) => {
    const body = [];
    req.on('data', (chunk) => body.push(chunk));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8') || '{}');
      const withUsage = request.stream_options?.include_usage === true;
      const id = `chatcmpl-bench-${++counter}`;
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const finish = () => {
        res.write(chunk({}, 'stop'));
        if (withUsage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
        res.end('data: [DONE]\n\n');
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }));
      if (mode.kind === 'held') {
        res.write(chunk({ content: 'holding' }));
        const entry = { release: finish };
        held.add(entry);
        res.on('close', () => held.delete(entry));
        for (const wake of heldWaiters) wake();
        return;
      }
      const { chunks, intervalMs, text } = mode;
      const paced = () => {
        const started = performance.now();
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(chunk({ content: text(sent) }));
          sent += 1;
          if (sent === chunks) {
            clearInterval(timer);
            finish();
            durations.push(performance.now() - started);
          }
        }, intervalMs);
      };
      const wait = waitFor(request);
      if (wait > 0) setTimeout(paced, wait);
      else paced();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    durations,
    /** Paced replies: `chunks` text chunks `intervalMs` apart, chunk i reading text(i) (default "word<i> "). */
    pace(chunks, intervalMs, text = words) {
      mode = { kind: 'paced', chunks, intervalMs, text };
    },
    hold() {
      mode = { kind: 'held' };
    },
    /** fn(request) → ms each paced reply waits before its first chunk (0: none). */
    waitBefore(fn) {
      waitFor = fn;
    },
    /** Resolves once `count` replies are being held. */
    whenHeld(count) {
      return new Promise((resolve) => {
        const check = () => {
          if (held.size >= count) {
            heldWaiters = heldWaiters.filter((w) => w !== check);
            resolve();
          }
        };
        heldWaiters.push(check);
        check();
      });
    },
    releaseAll() {
      for (const entry of [...held]) entry.release();
      held.clear();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
