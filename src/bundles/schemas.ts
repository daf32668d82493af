// Request and response schemas of the bundle routes (SPEC.md "Resources"): they validate, type the
// handlers and feed the OpenAPI document. Response schemas list every field, so nothing else (the
// envelope, the seed messages) can ever be serialised into a body.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PathId } from '../platform/http/index.js';

export const MAX_USER_MESSAGES = 100;
export const MAX_TURNS = 100;
export const DEFAULT_MAX_TURNS = 10;
export const MAX_CONVERSATION_ID_LENGTH = 200;

export const RegisterBundleResponseSchema = Type.Object(
  {
    handle: Type.String({ description: 'Opaque handle.' }),
    expiresAt: Type.String({ format: 'date-time', description: 'Earliest instant the handle expires; the TTL slides, so this is a floor.' }),
  },
  { $id: 'RegisterBundleResponse' },
);

export const RegisterBundleBodySchema = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The zip archive (non-empty, within MaxArchiveBytes).' }) },
  { description: 'multipart/form-data with the archive in the field `file`.' },
);

export const RunBundleRequestSchema = Type.Object(
  {
    userMessages: Type.Array(
      Type.String({ minLength: 1, pattern: '\\S', description: 'One turn per message; none empty or blank.' }),
      {
        minItems: 1,
        maxItems: MAX_USER_MESSAGES,
        description: 'Without conversationId the whole conversation; with it, appended to it.',
      },
    ),
    maxTurns: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_TURNS, default: DEFAULT_MAX_TURNS, description: 'Bounds the turns of this run only.' }),
    ),
    conversationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CONVERSATION_ID_LENGTH,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'Caller-chosen, created on first use, owned by its first user; runs naming it are serialised.',
      }),
    ),
    stream: Type.Optional(Type.Boolean({ default: false, description: 'True reserves the run for a live stream.' })),
  },
  { $id: 'RunBundleRequest', additionalProperties: false },
);

export const StartRunResponseSchema = Type.Object(
  {
    jobId: Type.String({ description: 'Opaque run id.' }),
    statusUrl: Type.String({ description: 'Relative URL of the poll endpoint.' }),
    streamUrl: Type.Union([Type.String(), Type.Null()], { description: 'Relative URL of the SSE feed; present only when `stream` was true.' }),
  },
  { $id: 'StartRunResponse' },
);

export const BundleRunOutcomeResponseSchema = Type.Object(
  {
    conversationSucceeded: Type.Boolean({ description: 'The conversation’s own outcome.' }),
    finalResponse: Type.String({ description: 'Empty when no turn produced one.' }),
    turnCount: Type.Integer(),
    totalToolInvocations: Type.Integer(),
    budgetExhausted: Type.Boolean({ default: false, description: 'Stopped early on the lifetime token budget (graceful).' }),
    conversationError: Type.Union([Type.String(), Type.Null()], { description: 'Reason when conversationSucceeded is false.' }),
  },
  { description: 'BundleRunOutcomeResponse' },
);

export const RunUsageSchema = Type.Object(
  { inputTokens: Type.Integer(), outputTokens: Type.Integer(), costUsd: Type.Optional(Type.Number({ description: 'Those tokens at ChatModel:Pricing (DESIGN §16).' })) },
  { description: 'Tokens the run spent (sub-agents included); beside SPEC.md’s fields, never input.' },
);

export const RunStatusSchema = Type.Union(
  [Type.Literal('Queued'), Type.Literal('Running'), Type.Literal('Succeeded'), Type.Literal('Failed')],
  { description: 'Serialised as its name.' },
);

export const BundleRunResponseSchema = Type.Object(
  {
    jobId: Type.String(),
    status: RunStatusSchema,
    error: Type.Union([Type.String(), Type.Null()], { description: 'Stable caller-safe reason when the run failed; never a raw exception.' }),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null while Queued.' }),
    completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null until terminal.' }),
    result: Type.Union([BundleRunOutcomeResponseSchema, Type.Null()], { description: 'Present once Succeeded.' }),
    usage: Type.Optional(RunUsageSchema),
    pendingApprovals: Type.Optional(
      Type.Array(
        Type.Object({
          approvalId: Type.String(),
          toolCallId: Type.String(),
          tool: Type.String(),
          operation: Type.String(),
          createdAt: Type.String({ format: 'date-time' }),
          expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        }),
        { description: 'Present while a Running run waits for a person’s decision on a tool call (DESIGN §13); decide through /api/approvals.' },
      ),
    ),
  },
  { $id: 'BundleRunResponse' },
);

export const HandleListSchema = Type.Object(
  {
    handles: Type.Array(
      Type.Object({
        handle: Type.String(),
        agentId: Type.String({ description: 'The agent id its AGENT.md declared.' }),
        expiresAt: Type.String({ format: 'date-time', description: 'A floor: the TTL slides on every request naming the handle.' }),
        createdAt: Type.String({ format: 'date-time' }),
      }),
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' }),
  },
  { $id: 'HandleList' },
);

export const RunListSchema = Type.Object(
  {
    runs: Type.Array(Type.Object(BundleRunResponseSchema.properties), { description: 'Poll bodies, newest first.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' }),
  },
  { $id: 'BundleRunList' },
);

export const HandleParamsSchema = Type.Object({ handle: PathId('The handle the upload returned.') });
export const RunParamsSchema = Type.Object({ handle: PathId('The handle the upload returned.'), jobId: PathId('The run’s job id.') });

export type RegisterBundleResponse = Static<typeof RegisterBundleResponseSchema>;
export type RunBundleRequest = Static<typeof RunBundleRequestSchema>;
export type StartRunResponse = Static<typeof StartRunResponseSchema>;
export type BundleRunOutcomeResponse = Static<typeof BundleRunOutcomeResponseSchema>;
export type BundleRunResponse = Static<typeof BundleRunResponseSchema>;
export type RunStatus = Static<typeof RunStatusSchema>;

/** AG-UI message roles (RunAgentInput.messages). Only the last `user` message is read. */
const AGUI_ROLES = ['developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning'] as const;

/**
 * AG-UI `RunAgentInput` (DESIGN §12), the body of `POST /api/bundles/{handle}/agui`: exactly the
 * protocol's fields. `threadId` is the conversation id (same rules), the last user message is the turn;
 * the client's `runId`, `state`, `tools`, `context` and `forwardedProps` are accepted and not used (the
 * bundle's own tools and the caller's envelope govern the run).
 */
export const RunAgentInputSchema = Type.Object(
  {
    threadId: Type.String({
      minLength: 1,
      maxLength: MAX_CONVERSATION_ID_LENGTH,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'The conversationId: created on first use, owned by its first user (another caller’s is 404).',
    }),
    runId: Type.String({ maxLength: 200, description: 'Ignored: RUN_STARTED carries the service’s job id as runId.' }),
    protocolVersion: Type.Optional(Type.String({ maxLength: 64 })),
    parentRunId: Type.Optional(Type.String({ maxLength: 200 })),
    state: Type.Optional(Type.Unknown({ description: 'Not used.' })),
    messages: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          role: Type.Union(AGUI_ROLES.map((role) => Type.Literal(role))),
          content: Type.Optional(
            Type.Union([
              Type.String(),
              Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true }), { description: 'Input content parts; the text parts are read.' }),
              Type.Null(),
            ]),
          ),
        },
        { additionalProperties: true, description: 'An AG-UI message (role-specific fields such as toolCalls pass through unread).' },
      ),
      { minItems: 1, description: 'The last `user` message is the turn; earlier messages are ignored (the service keeps the history).' },
    ),
    tools: Type.Optional(Type.Array(Type.Unknown(), { description: 'Not used: the bundle’s allowed tools within the caller’s envelope apply.' })),
    context: Type.Optional(Type.Array(Type.Unknown(), { description: 'Not used.' })),
    forwardedProps: Type.Optional(Type.Unknown({ description: 'Not used.' })),
    resume: Type.Optional(
      Type.Array(
        Type.Object(
          {
            interruptId: Type.String({ description: 'The interrupt’s id: the approval’s approvalId (RUN_FINISHED outcome.interrupts[].id).' }),
            status: Type.Enum(['resolved', 'cancelled'], { description: '`resolved` answers the interrupt (payload.decision, default Approve); `cancelled` rejects it.' }),
            payload: Type.Optional(
              Type.Object(
                {
                  decision: Type.Optional(Type.Enum(['Approve', 'Reject'])),
                  comment: Type.Optional(Type.String({ maxLength: 4000 })),
                  payload: Type.Optional(Type.Unknown()),
                },
                { additionalProperties: false },
              ),
            ),
            metadata: Type.Optional(Type.Unknown({ description: 'Not used.' })),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 16,
          description:
            'Answers interrupts of one run under this handle (DESIGN §13): each is decided when the caller may and it is still open, then the run’s continuation is streamed (RUN_STARTED with the same runId). The messages are not read.',
        },
      ),
    ),
  },
  { $id: 'RunAgentInput', additionalProperties: false },
);

export type RunAgentInput = Static<typeof RunAgentInputSchema>;
