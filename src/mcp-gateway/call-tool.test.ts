import { describe, expect, it } from 'vitest';
import { ANONYMOUS_PRINCIPAL } from '../platform/auth/index.js';
import { ProblemError } from '../platform/problems/index.js';
import { StorageUnavailableError } from '../platform/storage/index.js';
import type { InvokeDependencies } from '../tools/index.js';
import { callTool } from './call-tool.js';

const caller = { principal: ANONYMOUS_PRINCIPAL, requestId: 'req-1' };

/** Direct invocation's dependencies where acquiring a slot does what `acquire` says (nothing after it runs). */
function refusedAt(acquire: () => never): InvokeDependencies {
  return {
    access: { authorize: () => ({}) },
    slots: { tryAcquire: acquire },
    config: { enabled: false, maxRequestBytes: 1024, defaultTimeoutSeconds: 1, maxConcurrentPerCaller: 4, maxOutputBytes: 1024 },
    clock: { now: () => 0 },
    calls: {},
  } as unknown as InvokeDependencies;
}

describe('callTool', () => {
  it('answers a refusal HTTP words as a problem with isError and the problem’s detail', async () => {
    const deps = refusedAt(() => {
      throw new ProblemError('rate-limited', 'Too many at once.');
    });
    expect(await callTool(deps, caller, 'clock', { operation: 'now' }, new AbortController().signal)).toEqual({ content: [{ type: 'text', text: 'Too many at once.' }], isError: true });
  });

  it('answers unreachable storage as HTTP’s 503 does, in words, never the cause', async () => {
    const deps = refusedAt(() => {
      throw new StorageUnavailableError({ cause: new Error('connect ECONNREFUSED 10.0.0.7:5432') });
    });
    const result = await callTool(deps, caller, 'clock', { operation: 'now' }, new AbortController().signal);
    expect(result).toMatchObject({ isError: true, content: [{ text: 'The service cannot reach its storage right now; try again shortly.' }] });
  });

  it('lets anything else through as the bug it is', async () => {
    const deps = refusedAt(() => {
      throw new TypeError('boom');
    });
    await expect(callTool(deps, caller, 'clock', { operation: 'now' }, new AbortController().signal)).rejects.toThrow('boom');
  });
});
