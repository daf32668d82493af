// HTTP edge of schedules (DESIGN.md §14): create, list, get, change, delete, and a schedule's fires.
// Rate policies: schedules-write for create, change and delete; schedules-read for the reads.
import { IdempotencyHeadersSchema, listValidatorCompiler, pageOf, principalOf, problemResponses, type App } from '../platform/http/index.js';
import type { ScheduleService } from './schedule-service.js';
import {
  CreateScheduleRequestSchema,
  ScheduleFireListSchema,
  ScheduleIdParamsSchema,
  ScheduleListQuerySchema,
  ScheduleListSchema,
  ScheduleSchema,
  UpdateScheduleRequestSchema,
} from './schemas.js';

const TAGS = ['Schedules'];
const READ = { rateLimit: 'schedules-read' } as const;
const WRITE = { rateLimit: 'schedules-write' } as const;

export const scheduleLocation = (id: string): string => `/api/schedules/${encodeURIComponent(id)}`;

export function registerScheduleRoutes(app: App, schedules: ScheduleService): void {
  app.post(
    '/api/schedules',
    {
      config: { ...WRITE, idempotent: 'body' },
      schema: {
        operationId: 'createSchedule',
        summary: 'Create a schedule: a cron (in a time zone) that starts a workflow or eval run as me, under my claims as they are now.',
        tags: TAGS,
        headers: IdempotencyHeadersSchema,
        body: CreateScheduleRequestSchema,
        response: { 201: ScheduleSchema, ...problemResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const created = await schedules.create(principalOf(request), request.body);
      return reply.code(201).header('location', scheduleLocation(created.id)).send(created);
    },
  );

  app.get(
    '/api/schedules',
    {
      config: READ,
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listSchedules',
        summary: 'List my schedules, newest first.',
        tags: TAGS,
        querystring: ScheduleListQuerySchema,
        response: { 200: ScheduleListSchema, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request) => schedules.list(principalOf(request), pageOf(request.query)),
  );

  app.get(
    '/api/schedules/:id',
    {
      config: READ,
      schema: {
        operationId: 'getSchedule',
        summary: 'One of my schedules, with its next fire.',
        tags: TAGS,
        params: ScheduleIdParamsSchema,
        response: { 200: ScheduleSchema, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request) => schedules.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/schedules/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'updateSchedule',
        summary: 'Change a schedule; from now on it fires under my claims as they are now. A new cron or zone, or re-enabling, plans the next fire from now.',
        tags: TAGS,
        params: ScheduleIdParamsSchema,
        body: UpdateScheduleRequestSchema,
        response: { 200: ScheduleSchema, ...problemResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => schedules.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/schedules/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'deleteSchedule',
        summary: 'Delete a schedule: it never fires again (runs it started are not touched).',
        tags: TAGS,
        params: ScheduleIdParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted.' }, ...problemResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await schedules.delete(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/schedules/:id/fires',
    {
      config: READ,
      validatorCompiler: listValidatorCompiler,
      schema: {
        operationId: 'listScheduleFires',
        summary: 'A schedule’s fires, newest first: what each started, or why it did not.',
        tags: TAGS,
        params: ScheduleIdParamsSchema,
        querystring: ScheduleListQuerySchema,
        response: { 200: ScheduleFireListSchema, ...problemResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => schedules.fires(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
