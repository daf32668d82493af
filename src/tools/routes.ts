// HTTP edge of the tool plane: catalog, describe, direct invocation. Validates, calls the service,
// maps the result. The invoke body is validated inside the service, after the gates, so a caller
// without the role learns nothing from a malformed body (403 before 400).
import { principalOf, problemResponses, validationProblem, type App } from '../platform/http/index.js';
import type { CatalogService } from './catalog-service.js';
import { invokeTool, type InvokeDependencies } from './invoke-service.js';
import type { OnClientGone } from './invocation-deadline.js';
import {
  ToolCatalogEntrySchema,
  ToolCatalogResponseSchema,
  ToolDescriptionSchema,
  ToolInvocationRequestSchema,
  ToolInvocationResponseSchema,
  ToolNameParamsSchema,
  MAX_TIMEOUT_SECONDS,
  type ToolInvocationRequest,
} from './schemas.js';
import { Compile } from '../platform/vendor/typebox.js';
import type { ServerResponse } from 'node:http';

export interface ToolRoutesOptions extends InvokeDependencies {
  readonly catalog: CatalogService;
}

const invokeRequest = Compile(ToolInvocationRequestSchema);

/** The client going away before the response is written (not when the body was read). */
function onDisconnect(res: ServerResponse): OnClientGone {
  return (listener) => {
    const onClose = (): void => {
      if (!res.writableFinished) listener();
    };
    res.once('close', onClose);
    return () => res.off('close', onClose);
  };
}

/** The requested deadline, read leniently before full validation so the deadline covers the gates. */
function timeoutOf(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as { timeoutSeconds?: unknown }).timeoutSeconds;
  return typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_SECONDS ? value : undefined;
}

export function registerToolRoutes(app: App, options: ToolRoutesOptions): void {
  app.addSchema(ToolCatalogEntrySchema);

  app.get(
    '/api/tools',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'listTools',
        summary: 'List the tools the caller’s envelope grants.',
        tags: ['Tools'],
        response: { 200: ToolCatalogResponseSchema, ...problemResponses(401, 429) },
      },
    },
    async (request) => options.catalog.list(principalOf(request)),
  );

  app.get(
    '/api/tools/:name',
    {
      config: { rateLimit: 'tools-read' },
      schema: {
        operationId: 'describeTool',
        summary: 'Describe one granted tool (not granted answers 404, as nonexistent).',
        tags: ['Tools'],
        params: ToolNameParamsSchema,
        response: { 200: ToolDescriptionSchema, ...problemResponses(401, 404, 429) },
      },
    },
    async (request) => options.catalog.describe(principalOf(request), request.params.name),
  );

  app.post(
    '/api/tools/:name/invoke',
    {
      bodyLimit: options.config.maxRequestBytes,
      config: { rateLimit: 'tools-invoke', oversizeStatus: 413 },
      // Documented here, validated in the service after the gates.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'invokeTool',
        summary: 'Invoke one operation of one tool synchronously.',
        tags: ['Tools'],
        params: ToolNameParamsSchema,
        body: ToolInvocationRequestSchema,
        response: { 200: ToolInvocationResponseSchema, ...problemResponses(400, 401, 403, 404, 413, 429, 504) },
      },
    },
    // Not async: an async handler returning invokeTool's promise costs two more microtask turns per call.
    (request, reply) => {
      const principal = principalOf(request);
      const body: unknown = request.body;
      const parsed = (): ToolInvocationRequest => {
        if (!invokeRequest.Check(body)) {
          throw validationProblem('body', [...invokeRequest.Errors(body)].map((e) => ({ ...e })));
        }
        return body;
      };
      return invokeTool(options, {
        surface: 'direct',
        principal,
        toolName: request.params.name,
        read: parsed,
        onClientGone: onDisconnect(reply.raw),
        timeoutSeconds: timeoutOf(body),
        requestId: request.id,
      });
    },
  );
}
