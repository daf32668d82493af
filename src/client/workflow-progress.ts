// A workflow run's progress frames (DESIGN §6) that survive dropped connections: every frame's `id:`
// is remembered and a connection that ends before the stream's last frame is reopened with
// `Last-Event-ID`, so the frames after it are sent again and none is missed. The stream's last frame
// is FINISHED, PARKED (the run waits for an approval) or a SNAPSHOT of a run that already ended.
import type { ProgressFrame } from '../workflows/events.js';
import { sseMessages } from './sse-messages.js';
import { pathOf, type Transport } from './transport.js';
import { PortcullisProblem } from './portcullis-problem.js';
import { delay } from './delay.js';

export type WorkflowProgressFrame = ProgressFrame;

export interface WorkflowProgressEvent {
  /** The frame's sequence (`id:` line), when it had one. */
  readonly id: string | undefined;
  readonly frame: WorkflowProgressFrame;
}

export interface WorkflowProgressOptions {
  /** Resume after this id (a previous event's `id`). */
  readonly lastEventId?: string;
  readonly signal?: AbortSignal;
  /** Reconnections in a row without a frame before giving up (default 5). */
  readonly maxReconnects?: number;
  /** Wait before reconnecting, doubled each failed attempt (default 250 ms). */
  readonly retryDelayMs?: number;
}

function isLast(frame: WorkflowProgressFrame): boolean {
  return frame.type === 'FINISHED' || frame.type === 'PARKED' || (frame.type === 'SNAPSHOT' && frame.isTerminal);
}

export async function* workflowProgress(t: Transport, workflowId: string, jobId: string, options: WorkflowProgressOptions = {}): AsyncGenerator<WorkflowProgressEvent> {
  const url = `${t.baseUrl}/api/workflows/${pathOf(workflowId)}/runs/${pathOf(jobId)}/stream`;
  const maxReconnects = options.maxReconnects ?? 5;
  let lastEventId = options.lastEventId;
  let failures = 0;
  for (;;) {
    try {
      const response = await t.fetch(url, {
        headers: { ...t.headers, accept: 'text/event-stream', ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      for await (const message of sseMessages(response)) {
        const frame = JSON.parse(message.data) as WorkflowProgressFrame;
        if (message.id !== undefined) lastEventId = message.id;
        failures = 0;
        yield { id: message.id, frame };
        if (isLast(frame)) return;
      }
    } catch (error) {
      // A refusal (404, 503 stream ceiling …) or the caller's abort is final; a dropped connection is not.
      if (error instanceof PortcullisProblem || options.signal?.aborted === true) throw error;
      if (failures >= maxReconnects) throw error;
    }
    if (failures >= maxReconnects) throw new Error(`the progress stream of run ${jobId} kept closing before its last frame`);
    await delay((options.retryDelayMs ?? 250) * 2 ** failures, options.signal);
    failures += 1;
  }
}
