// AG-UI frames from a bundle run: the AG-UI endpoint (POST …/agui with a RunAgentInput) and the
// stream of a run reserved with `stream: true`. Events are typed by @ag-ui/core, the protocol's own
// package; each `data:` message is one event.
import type { BaseEvent, EventType } from '@ag-ui/core';
import type { components } from './generated/openapi.js';
import { sseMessages } from './sse-messages.js';
import { pathOf, type Transport } from './transport.js';

export type RunAgentInput = components['schemas']['RunAgentInput'];
/** An AG-UI event as the service sends it: `type` plus the event's fields. */
export type AguiEvent = BaseEvent & { readonly type: EventType | `${EventType}`; readonly [field: string]: unknown };

export async function* runAgui(t: Transport, handle: string, input: RunAgentInput, options: { signal?: AbortSignal } = {}): AsyncGenerator<AguiEvent> {
  const response = await t.fetch(`${t.baseUrl}/api/bundles/${pathOf(handle)}/agui`, {
    method: 'POST',
    headers: { ...t.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  yield* events(response);
}

export async function* bundleRunEvents(t: Transport, handle: string, jobId: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<AguiEvent> {
  const response = await t.fetch(`${t.baseUrl}/api/bundles/${pathOf(handle)}/runs/${pathOf(jobId)}/stream`, {
    headers: { ...t.headers, accept: 'text/event-stream' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  yield* events(response);
}

async function* events(response: Response): AsyncGenerator<AguiEvent> {
  for await (const message of sseMessages(response)) yield JSON.parse(message.data) as AguiEvent;
}
