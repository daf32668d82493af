import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isArchiveRejected } from '../archive/index.js';
import { meterRequestBody } from './body-meter.js';
import { receiveUpload } from './receive-upload.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function endedBody() {
  const body = Object.assign(new EventEmitter(), { readableEnded: true });
  return meterRequestBody(body, Number.MAX_SAFE_INTEGER, () => new Error('overflow'));
}

describe('receiveUpload', () => {
  it('writes the file part to the target and answers its size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portcullis-receive-'));
    dirs.push(dir);
    const target = join(dir, 'upload.zip');
    const bytes = await receiveUpload({ file: Readable.from([Buffer.alloc(300), Buffer.alloc(200)]), target, maxArchiveBytes: 500, body: endedBody() });
    expect(bytes).toBe(500);
    expect(existsSync(target)).toBe(true);
  });

  it('refuses a file over the cap only once the target is settled, so removing it leaves nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portcullis-receive-'));
    dirs.push(dir);
    for (let i = 0; i < 20; i += 1) {
      const target = join(dir, `upload-${i}.zip`);
      const refused = await receiveUpload({ file: Readable.from([Buffer.alloc(600)]), target, maxArchiveBytes: 500, body: endedBody() }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isArchiveRejected(refused)).toBe(true);
      await rm(target, { force: true });
      // Were the file's open still in flight, it would create the file after the removal.
      await delay(5);
      expect(existsSync(target)).toBe(false);
    }
  });
});
