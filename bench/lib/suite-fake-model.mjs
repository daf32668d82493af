// The test suite's fake OpenAI-compatible server (test/helpers/fake-openai-server.ts), transpiled once
// into `work` and run in a child process of its own, so its answers cost the benchmarked service
// nothing. `handler` is the source of a function (body, args) → the reply startFakeOpenAIServer takes;
// `args` reach it as JSON. count(): the requests received so far; close(): stops the child.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { forkServing } from './fake-model-process.mjs';

export async function startSuiteFakeModel(work, handler, args) {
  const source = await readFile(fileURLToPath(new URL('../../test/helpers/fake-openai-server.ts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  await writeFile(join(work, 'fake-openai-server.mjs'), outputText);
  const launcher = join(work, 'fake-model-launcher.mjs');
  await writeFile(
    launcher,
    [
      "import { startFakeOpenAIServer } from './fake-openai-server.mjs';",
      'const args = JSON.parse(process.argv[2]);',
      `const handler = ${handler};`,
      'const fake = await startFakeOpenAIServer((body) => handler(body, args));',
      'process.send({ url: fake.url });',
      "process.on('message', async (message) => {",
      "  if (message === 'count') return process.send({ count: fake.requests.length });",
      '  await fake.close();',
      '  process.exit(0);',
      '});',
    ].join('\n'),
  );
  const { url, child, close } = await forkServing(launcher, args);
  return {
    url,
    count: () =>
      new Promise((resolve) => {
        const onMessage = (message) => {
          if (message.count === undefined) return;
          child.off('message', onMessage);
          resolve(message.count);
        };
        child.on('message', onMessage);
        child.send('count');
      }),
    close,
  };
}
