// The minimal fake model (fake-model.mjs) in a child process of its own, pacing every reply: the role
// chunk at once, then `chunks` chunks of `text` `intervalMs` apart, then finish, usage and [DONE].
// It keeps nothing per request but the stream durations, so its own work per reply is a few writes:
// the ideal of a benchmark that waits on it is not hidden behind the fake's queueing (the suite's
// fake, test/helpers/fake-openai-server.ts, records every request and parses its URL and body).
// startFakeModelProcess({ chunks, intervalMs, text }) → { url, close() }.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startFakeModel } from './fake-model.mjs';

const self = fileURLToPath(import.meta.url);

export async function startFakeModelProcess({ chunks, intervalMs, text }) {
  const { url, close } = await forkServing(self, { chunks, intervalMs, text });
  return { url, close };
}

/**
 * A fake server's module run in a child (`args` as JSON in argv[2]): it answers `{ url }` once it
 * listens and exits on the message 'close'. Both benchmark fakes start this way (suite-fake-model.mjs).
 */
export async function forkServing(module, args) {
  const child = fork(module, [JSON.stringify(args)], { stdio: 'inherit' });
  const { url } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the fake model process exited (${code})`)));
  });
  return {
    url,
    child,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

if (process.argv[1] === self && process.send !== undefined) {
  const { chunks, intervalMs, text } = JSON.parse(process.argv[2]);
  const model = await startFakeModel();
  model.pace(chunks, intervalMs, () => text);
  process.send({ url: model.url });
  process.on('message', async () => {
    await model.close();
    process.exit(0);
  });
}
