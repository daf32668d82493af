// Plumbing for the A2A tests (DESIGN §20): settings with A2A on, the official @a2a-js/sdk client pointed
// at a handle's card (a bearer token attached the SDK's way), SendMessage requests built from JSON as a
// client writes them, and raw JSON-RPC over fetch for what no well-behaved client sends.
import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { createScriptedModel, type ChatModel, type ChatRequest, type ChatStreamPart } from '../../src/models/index.js';
import { merge } from '../helpers/test-app.js';

/** Bundle settings plus A2A on and roomy rate limits. */
export function a2aSettings(bundle: Record<string, unknown>, ai: Record<string, unknown> = {}): Record<string, unknown> {
  return merge(bundle, { AppConfig: { AI: merge({ A2A: { Enabled: true } }, ai) } });
}

/** fetch with the caller's Authorization header, the way the SDK's AuthenticationHandler attaches one. */
export function authedFetch(authorization?: string): typeof fetch {
  if (authorization === undefined) return fetch;
  return createAuthenticatingFetchWithRetry(fetch, { headers: async () => ({ authorization }), shouldRetryWithHeaders: async () => undefined });
}

/** The SDK's client for an uploaded agent, from its card (the base URL ends with a slash: the card is relative to it). */
export async function a2aClient(base: string, handle: string, authorization?: string): Promise<Client> {
  const fetchImpl = authedFetch(authorization);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${base}/a2a/${handle}/`);
}

/** A user message of text parts (and a context or task it belongs to), as SendMessage params. */
export function textMessage(texts: string | string[], options: { contextId?: string; taskId?: string; returnImmediately?: boolean } = {}): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: (Array.isArray(texts) ? texts : [texts]).map((text) => ({ text })),
      ...(options.contextId === undefined ? {} : { contextId: options.contextId }),
      ...(options.taskId === undefined ? {} : { taskId: options.taskId }),
    },
    ...(options.returnImmediately === undefined ? {} : { configuration: { returnImmediately: options.returnImmediately } }),
  });
}

/** A decision on the call a task waits on, as SendMessage params. */
export function decisionMessage(taskId: string, approvalId: string, decision: 'Approve' | 'Reject', comment?: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', taskId, parts: [{ data: { approvalId, decision, ...(comment === undefined ? {} : { comment }) } }] },
  });
}

/** A SendMessage answer that must be a task. */
export function asTask(result: unknown): Task {
  if (typeof result !== 'object' || result === null || !('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result as Task;
}

export function stateOf(task: Task): string {
  return TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];
}

/** The text of a task's answer artifact. */
export function answerOf(task: Task): string | undefined {
  const part = task.artifacts[0]?.parts[0];
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

/** The data part of an INPUT_REQUIRED task's status message. */
export function waitingOf(task: Task): { approvalId: string; tool: string; operation: string; arguments: string | null; expiresAt: string | null } {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`the task waits for nothing: ${JSON.stringify(task.status)}`);
  return part.content.value as ReturnType<typeof waitingOf>;
}

/** A JSON-RPC answer as the wire has it. */
export interface RpcAnswer {
  readonly jsonrpc?: string;
  readonly id?: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** One raw JSON-RPC POST (what no well-behaved client sends), with A2A-Version 1.0 unless told otherwise. */
export async function rawRpc(base: string, handle: string, body: string | object, headers: Record<string, string> = {}): Promise<{ status: number; contentType: string | null; text: string; json: () => RpcAnswer }> {
  const res = await fetch(`${base}/a2a/${handle}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, json: () => JSON.parse(text) as RpcAnswer };
}

/**
 * The Scripted model, recording every request, that holds a reply to a last user message starting with
 * `hold` until the test releases it (or the run is cancelled): for cancels and subscriptions mid-run.
 */
export function holdingScriptedModel(): ChatModel & { readonly requests: ChatRequest[]; release(): void } {
  const scripted = createScriptedModel();
  const requests: ChatRequest[] = [];
  let released = false;
  const waiting = new Set<() => void>();
  return {
    specificationVersion: 'portcullis-chat-v1',
    provider: 'Scripted',
    modelId: 'holding',
    requests,
    release: () => {
      released = true;
      for (const wake of waiting) wake();
    },
    async *stream(request): AsyncGenerator<ChatStreamPart> {
      requests.push(request);
      const last = [...request.messages].reverse().find((m) => m.role === 'user');
      if (last?.content.startsWith('hold') === true && !released) {
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            waiting.delete(wake);
            resolve();
          };
          waiting.add(wake);
          request.signal.addEventListener('abort', wake, { once: true });
        });
        if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
      }
      yield* scripted.stream(request);
    },
  };
}
