// A generated request id is one flat string (decision 3610): Node's randomUUID answers a rope that
// the header-value check must flatten through V8's runtime. V8's own print of each string, in a
// child with natives syntax on, names its representation.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers/cli-process.js';
import { REPO_ROOT } from './helpers/live-service.js';

const FLAT_UUID = fileURLToPath(new URL('../dist/src/platform/http/flat-uuid.js', import.meta.url));
const SCRIPT = `
import { randomUUID } from 'node:crypto';
const { flatRandomUuid } = await import(${JSON.stringify(FLAT_UUID)});
const print = new Function('s', '%DebugPrint(s)');
console.log('flatRandomUuid:'); print(flatRandomUuid());
console.log('randomUUID:'); print(randomUUID());
`;

describe('a generated request id', () => {
  it('is a sequential one-byte string, where randomUUID answers a cons string (rope)', async () => {
    const result = await runProcess(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', SCRIPT], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' } });
    expect(result.code, result.stderr).toBe(0);
    const types = [...result.stdout.matchAll(/^(\w+):$|- type: (\w+)/gm)].map((match) => match[1] ?? match[2]);
    expect(types).toEqual(['flatRandomUuid', 'ONE_BYTE_STRING_TYPE', 'randomUUID', 'CONS_ONE_BYTE_STRING_TYPE']);
  }, 30_000);
});
