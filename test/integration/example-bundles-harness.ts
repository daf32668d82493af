// Runs the shipped example bundles as `npm start` would host them: the checked-in Development settings
// with their relative roots made absolute, each example packed by the CLI's zipper, uploaded and run
// through its AG-UI stream. Also reads a run's frames as a user reads a transcript.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { zipFolder } from '../../src/cli/bundle-pack/index.js';
import type { App } from '../../src/platform/http/index.js';
import { merge } from '../helpers/test-app.js';
import { readVerifiedStream, registerHandle, startRun, type Frame } from './bundles-harness.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** appsettings.Development.json, with staging under `dir` and the example roots absolute. */
export async function developmentSettings(dir: string): Promise<Record<string, unknown>> {
  const development = JSON.parse(await readFile(join(REPO, 'appsettings.Development.json'), 'utf8')) as Record<string, unknown>;
  return merge(development, {
    AppConfig: {
      AI: {
        BundleExecution: { TempRoot: join(dir, 'staging') },
        Retrieval: { Indexes: { handbook: { Root: join(REPO, 'examples/knowledge') } } },
        Evaluation: { DatasetRoots: [join(REPO, 'examples/evals')] },
      },
    },
  });
}

/** Packs examples/bundles/{example} into `dir`, uploads it and streams one run of `message` from `url`. */
export async function streamExample(app: App, url: string, dir: string, example: string, message: string): Promise<Frame[]> {
  const zip = join(dir, `${example}.zip`);
  await zipFolder(join(REPO, 'examples/bundles', example), zip);
  const handle = await registerHandle(app, {}, await readFile(zip));
  const started = await startRun(app, handle, { userMessages: [message], stream: true });
  expect(started.statusCode).toBe(202);
  return readVerifiedStream(`${url}${started.json<{ streamUrl: string }>().streamUrl}`);
}

export const resultOf = (frames: Frame[]): string | undefined => frames.find((f) => f.type === 'TOOL_CALL_RESULT')?.content;

export const toolsCalled = (frames: Frame[]): string[] => frames.filter((f) => f.type === 'TOOL_CALL_START').map((f) => f.toolCallName!);

/** The text of the run's last assistant message: its answer. */
export function answerOf(frames: Frame[]): string {
  const last = frames.findLast((f) => f.type === 'TEXT_MESSAGE_START')?.messageId;
  return frames
    .filter((f) => f.type === 'TEXT_MESSAGE_CONTENT' && f.messageId === last)
    .map((f) => f.delta)
    .join('');
}
