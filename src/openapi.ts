// The OpenAPI 3.1 document's frame: `info.version` is the package version (2.0.0, SPEC.md
// "Versioning"; decision 0801), a relative server, the bearer scheme applied to every route unless
// the route opts out, and the tags the families use. Routes supply the operations. Request and response
// bodies whose schema is named (`$id`) are published once under `components.schemas` and referenced
// (`$ref`) from every operation; validation and serialisation keep using the route schemas as they are.
import type { SwaggerOptions } from '@fastify/swagger';
import { packageInfo } from './platform/package-info/index.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

const NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function namedId(value: Json): string | undefined {
  const id = (value as { $id?: unknown } | null)?.$id;
  return typeof id === 'string' && NAME.test(id) ? id : undefined;
}

/** A `$ref` the route schemas use ('ToolCatalogEntry', 'ToolCatalogEntry#') as a document reference. */
function documentRef(ref: string): string {
  if (ref.startsWith('#')) return ref;
  const hash = ref.indexOf('#');
  const name = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  return `#/components/schemas/${name}${pointer}`;
}

/** A copy fit for `components.schemas`: no `$id`s, named sub-schemas and references pointing into the document. */
function componentCopy(value: Json, root: boolean, path: ReadonlySet<object> = new Set()): Json {
  if (typeof value !== 'object' || value === null) return value;
  const nested = root ? undefined : namedId(value);
  if (nested !== undefined) return { $ref: documentRef(nested) };
  if (path.has(value)) return {}; // a cyclic object graph (not a $ref cycle): cut, never loop
  const inner = new Set(path).add(value);
  if (Array.isArray(value)) return value.map((item) => componentCopy(item, false, inner));
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id') continue;
    copy[key] = key === '$ref' && typeof child === 'string' ? documentRef(child) : componentCopy(child, false, inner);
  }
  return copy;
}

/** Every schema with an `$id` inside a route schema, by that id (the first seen wins). */
function collectNamedSchemas(value: Json, into: Map<string, Json>, seen = new Set<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const child of value) collectNamedSchemas(child, into, seen);
    return;
  }
  const id = namedId(value);
  if (id !== undefined && !into.has(id)) into.set(id, componentCopy(value, true));
  for (const child of Object.values(value)) collectNamedSchemas(child, into, seen);
}

/** Which named schemas one operation's request body and responses are, and whether the body may be left out. */
interface OperationRefs {
  readonly body: string | undefined;
  /** A route schema's `'x-optional-body': true`: no body is an ordinary request. */
  readonly bodyOptional: boolean;
  readonly responses: ReadonlyMap<string, string>;
}

function operationRefs(schema: Json): OperationRefs {
  const { body, response, 'x-optional-body': optional } = (schema ?? {}) as { body?: Json; response?: Record<string, Json>; 'x-optional-body'?: boolean };
  const responses = new Map<string, string>();
  for (const [status, responseSchema] of Object.entries(response ?? {})) {
    const id = namedId(responseSchema);
    if (id !== undefined) responses.set(status, id);
  }
  return { body: namedId(body), bodyOptional: optional === true, responses };
}

const SUCCESS_DESCRIPTIONS: Readonly<Record<string, string>> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

interface MediaMap {
  content?: Record<string, { schema?: Json }>;
  description?: string;
}

function referTo(media: MediaMap | undefined, id: string): void {
  for (const entry of Object.values(media?.content ?? {})) entry.schema = { $ref: documentRef(id) };
}

export function buildOpenApiOptions(): SwaggerOptions {
  const named = new Map<string, Json>();
  const refsByOperation = new Map<string, OperationRefs>();
  const { version } = packageInfo();
  return {
    transform: ({ schema, url, route }) => {
      collectNamedSchemas(schema, named);
      const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const method of [route.method].flat()) refsByOperation.set(`${method.toLowerCase()} ${path}`, operationRefs(schema));
      return { schema, url };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const doc = documentObject.openapiObject;
      const components = (doc.components ??= {}) as { schemas?: JsonObject };
      const schemas = (components.schemas ??= {});
      for (const [id, schema] of named) if (!(id in schemas)) schemas[id] = schema;
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        for (const [method, operation] of Object.entries(item as Record<string, { requestBody?: MediaMap & { required?: boolean }; responses?: Record<string, MediaMap> }>)) {
          const refs = refsByOperation.get(`${method} ${path}`);
          if (refs?.body !== undefined) referTo(operation.requestBody, refs.body);
          if (refs?.bodyOptional === true && operation.requestBody !== undefined) operation.requestBody.required = false;
          delete (operation as Record<string, unknown>)['x-optional-body'];
          for (const [status, response] of Object.entries(operation.responses ?? {})) {
            const id = refs?.responses.get(status);
            if (id !== undefined) referTo(response, id);
            if (response.description === 'Default Response') response.description = SUCCESS_DESCRIPTIONS[status] ?? 'Response';
          }
        }
      }
      return doc;
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portcullis',
        version,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'A governed HTTP front door for automation the host did not write: bundles, workflows, tools and evals ' +
          'under one bearer-token authentication, one ownership rule and one capability envelope. Errors are RFC 7807 ' +
          'problem documents (application/problem+json).',
      },
      // Relative: the document describes the service that serves it, wherever it is mounted.
      servers: [{ url: '/', description: 'The service serving this document.' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT for audience api://{ClientId}.' },
        },
      },
      security: [{ bearer: [] }],
      tags: [
        { name: 'System', description: 'Public liveness, readiness and this document.' },
        { name: 'Capabilities', description: 'What the caller’s envelope grants, and why.' },
        { name: 'Tools', description: 'Tool catalog and direct invocation.' },
        { name: 'Bundles', description: 'Agent bundles: upload, runs, streams, the AG-UI endpoint.' },
        { name: 'Workflows', description: 'DAG workflows: definitions, runs, approvals, streams.' },
        { name: 'Evals', description: 'Evaluation datasets and runs.' },
        { name: 'Schedules', description: 'Cron schedules that start workflow and eval runs as their owner, and their fires.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
