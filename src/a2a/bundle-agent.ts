// One caller's uploaded agent as the A2A SDK's request handler (DESIGN §20): a thin adapter over the
// bundle run service, built per request for (caller, handle), and handed to the SDK's JSON-RPC transport
// handler, which owns the protocol (method dispatch, the wire types, the error envelopes). SendMessage
// starts a bundle run (channel `a2a`) with the STARTING caller's envelope, exactly as POST …/runs does,
// and — unless `returnImmediately` — waits for it to end or to wait for a person; SendStreamingMessage
// streams the task from its journal; a data part on an INPUT_REQUIRED task decides its approval through
// the approval contract (§13: who may decide is the contract's rule) and the task goes on; GetTask,
// ListTasks, CancelTask and SubscribeToTask read and cancel the caller's runs under this handle. Tasks
// are runs started over A2A; any other id — unknown, foreign, expired, or a run of the bundle routes —
// is one TaskNotFound. Nothing here executes a run: the run engine does, on whichever instance.
import type { AgentCard, CancelTaskRequest, GetTaskRequest, ListTasksRequest, ListTasksResponse, Message, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { ExtendedAgentCardNotConfiguredError, PushNotificationNotSupportedError, RequestMalformedError, TaskNotCancelableError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import type { Approvals } from '../approvals/index.js';
import { CONVERSATION_NOT_FOUND_DETAIL, type BundleHandle, type BundleRunRecord, type BundleRunService } from '../bundles/index.js';
import type { Principal } from '../platform/auth/index.js';
import type { IdGenerator } from '../platform/clock/index.js';
import type { ProblemError } from '../platform/problems/index.js';
import { isProblemError } from '../platform/problems/index.js';
import { HttpRefusal, taskNotFound, toA2aError } from './a2a-errors.js';
import { readMessage, type Decision, type MessageIntent } from './read-message.js';
import { isFinal, taskOf, type WaitingCallView } from './task-of-run.js';
import { taskUpdates, untilSettled } from './task-updates.js';

export interface BundleAgentDeps {
  readonly runs: BundleRunService;
  readonly approvals: Approvals;
  readonly ids: IdGenerator;
  readonly now: () => number;
  readonly log: { error(details: object, message: string): void };
  /** How long CancelTask waits for an executing run to stop before answering its state as it stands. */
  readonly cancelWaitMs: number;
}

export interface BundleAgentCall {
  readonly principal: Principal;
  readonly handle: BundleHandle;
  readonly card: AgentCard;
  readonly requestId: string | null;
  /** Aborts when the client went away: waits and streams stop (the run goes on). */
  readonly signal: AbortSignal;
  /** Aborts when the host stops: waits answer the task as it stands, streams end. */
  readonly finish: AbortSignal;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

export class BundleAgent implements A2ARequestHandler {
  readonly #deps: BundleAgentDeps;
  readonly #call: BundleAgentCall;
  /** A refusal to answer as HTTP (429, 503, 404 handle gone), seen after the SDK mapped the call's error. */
  refusal: ProblemError | undefined;

  constructor(deps: BundleAgentDeps, call: BundleAgentCall) {
    this.#deps = deps;
    this.#call = call;
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.#call.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('This agent has no extended card: its card is already the caller’s own.');
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    try {
      const intent = readMessage(params);
      const blocking = params.configuration?.returnImmediately !== true;
      const { run, after } = await this.#act(intent);
      if (blocking) await untilSettled(this.#deps.runs, run, after, this.#call.signal, this.#call.finish);
      return await this.#taskNow(run.jobId);
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      const { run, after } = await this.#act(readMessage(params));
      const task = await this.#taskNow(run.jobId);
      yield { payload: { $case: 'task', value: task } };
      if (!isFinal(stateOf(task))) yield* this.#updates(run, after, stateOf(task));
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    try {
      return await this.#taskNow(params.id);
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    try {
      const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new RequestMalformedError(`pageSize must be 1 to ${MAX_PAGE_SIZE}.`);
      const { principal, handle } = this.#call;
      const page = await this.#deps.runs.records(principal, handle.handle, { limit: pageSize, cursor: params.pageToken === '' ? null : params.pageToken });
      const tasks: Task[] = [];
      for (const run of page.runs) {
        if (run.channel !== 'a2a' || (params.contextId !== '' && run.contextId !== params.contextId)) continue;
        const task = await this.#taskOf(run);
        if (params.status !== TaskState.TASK_STATE_UNSPECIFIED && stateOf(task) !== params.status) continue;
        tasks.push(params.includeArtifacts === true ? task : { ...task, artifacts: [] });
      }
      // The count of this page's tasks: the store keeps no total per handle (docs/decisions/4101-a2a.md).
      return { tasks, nextPageToken: page.nextCursor ?? '', pageSize, totalSize: tasks.length };
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    try {
      const run = await this.#run(params.id);
      if (isFinal(stateOf(await this.#taskOf(run)))) throw new TaskNotCancelableError('The task has already ended.');
      await this.#deps.runs.cancel(run);
      // An executing run stops where it is (any instance); wait a little for its end, then answer as it stands.
      const waiting = AbortSignal.any([this.#call.signal, AbortSignal.timeout(this.#deps.cancelWaitMs)]);
      await untilSettled(this.#deps.runs, run, 0, waiting, this.#call.finish, { throughInterrupts: true });
      return await this.#taskNow(run.jobId);
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      const run = await this.#run(params.id);
      const task = await this.#taskOf(run);
      if (isFinal(stateOf(task))) throw new UnsupportedOperationError('The task has ended: read it with GetTask.');
      yield { payload: { $case: 'task', value: task } };
      if (stateOf(task) !== TaskState.TASK_STATE_INPUT_REQUIRED) yield* this.#updates(run, await this.#deps.runs.interruptAt(run), stateOf(task));
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async createTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError('This agent sends no push notifications.');
  }

  async getTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError('This agent sends no push notifications.');
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError('This agent sends no push notifications.');
  }

  async deleteTaskPushNotificationConfig(): Promise<void> {
    throw new PushNotificationNotSupportedError('This agent sends no push notifications.');
  }

  /** Starts a run, or decides the call a task waits on; where its journal is to be followed from. */
  async #act(intent: MessageIntent): Promise<{ readonly run: BundleRunRecord; readonly after: number }> {
    if (intent.kind === 'decide') {
      const run = await this.#run(intent.taskId);
      if (intent.contextId !== null && intent.contextId !== run.contextId) throw new RequestMalformedError('contextId is not the task’s.');
      await this.#decide(run, intent.decision);
      return { run, after: await this.#deps.runs.interruptAt(run, intent.decision.approvalId) };
    }
    if (intent.taskId !== null) {
      const run = await this.#run(intent.taskId);
      const ended = isFinal(stateOf(await this.#taskOf(run)));
      throw new UnsupportedOperationError(
        ended
          ? 'The task has ended: send a new message with its contextId (and no taskId) to go on with the conversation.'
          : 'The task takes no more messages while it runs; a task that waits for a person takes one data part deciding the call.',
      );
    }
    return { run: await this.#start(intent.userMessages, intent.contextId), after: 0 };
  }

  async #start(userMessages: readonly string[], contextId: string | null): Promise<BundleRunRecord> {
    const { principal, handle, requestId } = this.#call;
    const { runs, ids } = this.#deps;
    // Every A2A task has a context: a new conversation when the message names none.
    const conversationId = contextId ?? ids.opaque();
    try {
      const started = await runs.start(principal, handle.handle, { userMessages: [...userMessages], maxTurns: userMessages.length, conversationId }, requestId, 'a2a');
      const run = await runs.record(principal, handle.handle, started.jobId);
      if (run === undefined) throw taskNotFound();
      return run;
    } catch (error) {
      if (isProblemError(error) && error.code === 'not-found') {
        if (error.detail === CONVERSATION_NOT_FOUND_DETAIL) throw new RequestMalformedError('contextId names a conversation of another caller: choose another contextId to start a new conversation.');
        // The handle went between the route's lookup and the start: answered as an unknown handle.
        throw new HttpRefusal(error);
      }
      throw error;
    }
  }

  async #decide(run: BundleRunRecord, decision: Decision): Promise<void> {
    const { approvals } = this.#deps;
    const { principal, requestId } = this.#call;
    const approval = await approvals.store.get({ ownerId: run.ownerId }, decision.approvalId);
    if (approval === undefined || approval.runKind !== 'bundle' || approval.jobId !== run.jobId) throw new RequestMalformedError('approvalId is not a call this task waits on.');
    await approvals.decide(principal, decision.approvalId, { decision: decision.decision, comment: decision.comment }, { requestId });
  }

  #updates(run: BundleRunRecord, after: number, state: TaskState): AsyncGenerator<StreamResponse> {
    const { signal, finish } = this.#call;
    return taskUpdates(this.#deps.runs, run, { after, state }, () => this.#taskNow(run.jobId), { signal, finish, now: this.#deps.now });
  }

  /** The caller's A2A run under this handle; TaskNotFound for anything else. */
  async #run(taskId: string): Promise<BundleRunRecord> {
    if (taskId === '') throw new RequestMalformedError('The task id is required.');
    const run = await this.#deps.runs.record(this.#call.principal, this.#call.handle.handle, taskId);
    if (run?.channel !== 'a2a') throw taskNotFound();
    return run;
  }

  async #taskNow(taskId: string): Promise<Task> {
    return this.#taskOf(await this.#run(taskId));
  }

  async #taskOf(run: BundleRunRecord): Promise<Task> {
    return taskOf(run, await this.#waiting(run));
  }

  /** The call a parked run waits on, with its redacted arguments from the approval. */
  async #waiting(run: BundleRunRecord): Promise<WaitingCallView | undefined> {
    const parked = run.status === 'Running' ? run.parked : undefined;
    if (parked === undefined || parked.verdict !== undefined) return undefined;
    const { approvalId, tool, operation, expiresAt, createdAt } = parked.waiting;
    const approval = await this.#deps.approvals.store.get({ ownerId: run.ownerId }, approvalId);
    return { approvalId, tool, operation, expiresAt, createdAt, arguments: approval?.kind === 'ToolCall' ? approval.arguments : null };
  }

  #fail(error: unknown): Error {
    const mapped = toA2aError(error, this.#deps.log);
    if (mapped instanceof HttpRefusal) this.refusal = mapped.problem;
    return mapped;
  }
}

function stateOf(task: Task): TaskState {
  return task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
}
