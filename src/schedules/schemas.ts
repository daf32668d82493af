// Request and response schemas of the schedule routes (DESIGN.md §14), for validation and the OpenAPI
// document. Field names are §14's, exactly.
import { Type } from '../platform/vendor/typebox.js';
import type { Static } from 'typebox';
import { PageQuerySchema, PathId } from '../platform/http/index.js';

const DateTime = Type.String({ format: 'date-time' });
const nextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null when nothing follows.' });

const WorkflowTargetSchema = Type.Object(
  {
    workflow: Type.Object(
      {
        workflowId: Type.String({ minLength: 1, maxLength: 256, description: 'One of my workflows.' }),
        input: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The run’s input, as for POST /api/workflows/{id}/runs.' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const EvalTargetSchema = Type.Object(
  {
    eval: Type.Object(
      {
        datasets: Type.Array(Type.String({ maxLength: 256 }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Dataset names, as for POST /api/evals/runs.' }),
        repeats: Type.Optional(Type.Integer({ minimum: 1 })),
        parallelism: Type.Optional(Type.Integer({ minimum: 1 })),
        tagFilter: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { minItems: 1, maxItems: 100 })),
        failRateThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      },
      { additionalProperties: false, description: 'An eval run’s start request; its ceilings are checked at each fire.' },
    ),
  },
  { additionalProperties: false },
);

export const ScheduleTargetSchema = Type.Union([WorkflowTargetSchema, EvalTargetSchema], {
  $id: 'ScheduleTarget',
  description: 'What a fire starts, as the schedule’s owner: a workflow run or an eval run.',
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  cron: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'Five fields (minute hour day-of-month month day-of-week), six with seconds first when AppConfig:Schedules:MinIntervalSeconds is under 60, or @hourly, @daily, @weekly, @monthly.',
  }),
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone the cron is read in (default UTC); DST as croner defines it.' }),
  target: ScheduleTargetSchema,
  enabled: Type.Boolean({ description: 'A disabled schedule does not fire (default true).' }),
};

export const CreateScheduleRequestSchema = Type.Object(
  { name: fields.name, cron: fields.cron, timeZone: Type.Optional(fields.timeZone), target: fields.target, enabled: Type.Optional(fields.enabled) },
  { $id: 'CreateScheduleRequest', additionalProperties: false },
);

export const UpdateScheduleRequestSchema = Type.Object(
  { name: Type.Optional(fields.name), cron: Type.Optional(fields.cron), timeZone: Type.Optional(fields.timeZone), target: Type.Optional(fields.target), enabled: Type.Optional(fields.enabled) },
  { $id: 'UpdateScheduleRequest', additionalProperties: false, minProperties: 1, description: 'The fields to change; the schedule then runs under the claims of this request.' },
);

export const ScheduleSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    cron: Type.String(),
    timeZone: Type.String(),
    target: ScheduleTargetSchema,
    enabled: Type.Boolean(),
    nextRunAt: Type.Union([DateTime, Type.Null()], { description: 'The next fire; null while disabled.' }),
    createdAt: DateTime,
  },
  { $id: 'Schedule' },
);

export const ScheduleListSchema = Type.Object({ schedules: Type.Array(ScheduleSchema), nextCursor }, { $id: 'ScheduleList' });

export const ScheduleFireSchema = Type.Object(
  {
    scheduledFor: Type.String({ format: 'date-time', description: 'The cron instant fired for (the latest one, for a catch-up fire).' }),
    firedAt: DateTime,
    jobId: Type.Optional(Type.String({ description: 'The run it started (Started only).' })),
    outcome: Type.Enum(['Started', 'Skipped', 'Failed'], { description: 'Skipped: a live run or a cap was in the way; Failed: anything else.' }),
    reason: Type.Optional(Type.String({ description: 'Why it did not start.' })),
  },
  { $id: 'ScheduleFire' },
);

export const ScheduleFireListSchema = Type.Object({ fires: Type.Array(ScheduleFireSchema), nextCursor }, { $id: 'ScheduleFireList' });

export const ScheduleIdParamsSchema = Type.Object({ id: PathId('The schedule’s id.') });
export const ScheduleListQuerySchema = PageQuerySchema;

export type ScheduleTarget = Static<typeof ScheduleTargetSchema>;
export type EvalTarget = Static<typeof EvalTargetSchema>['eval'];
export type ScheduleResource = Static<typeof ScheduleSchema>;
export type FireResource = Static<typeof ScheduleFireSchema>;
export type CreateScheduleRequest = Static<typeof CreateScheduleRequestSchema>;
export type UpdateScheduleRequest = Static<typeof UpdateScheduleRequestSchema>;
