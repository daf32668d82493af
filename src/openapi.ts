// The OpenAPI 3.1 document's frame: version 2.0.0 (SPEC.md "Versioning"), the bearer scheme applied
// to every route unless the route opts out, and the tags the families use. Routes supply the rest.
import type { SwaggerOptions } from '@fastify/swagger';

export const API_VERSION = '2.0.0';

type Json = unknown;

/** A `$ref` the route schemas use ('ToolCatalogEntry', 'ToolCatalogEntry#') as a document reference. */
function documentRef(ref: string): string {
  if (ref.startsWith('#')) return ref;
  const hash = ref.indexOf('#');
  const name = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  return `#/components/schemas/${name}${pointer}`;
}

/** A copy fit for `components.schemas`: no `$id`s, references rewritten to the document. */
function componentCopy(value: Json, path: ReadonlySet<object> = new Set()): Json {
  if (typeof value !== 'object' || value === null) return value;
  if (path.has(value)) return {}; // a cyclic object graph (not a $ref cycle): cut, never loop
  const inner = new Set(path).add(value);
  if (Array.isArray(value)) return value.map((item) => componentCopy(item, inner));
  const copy: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id') continue;
    copy[key] = key === '$ref' && typeof child === 'string' ? documentRef(child) : componentCopy(child, inner);
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
  const id = (value as { $id?: unknown }).$id;
  if (typeof id === 'string' && /^[A-Za-z][A-Za-z0-9_.-]*$/.test(id) && !into.has(id)) into.set(id, componentCopy(value));
  for (const child of Object.values(value)) collectNamedSchemas(child, into, seen);
}

export function buildOpenApiOptions(): SwaggerOptions {
  // Route schemas are inlined by @fastify/swagger, which drops their names; SPEC.md's resources
  // (ToolInvocationRequest, RegisterBundleResponse, …) are also published under components.schemas.
  const named = new Map<string, Json>();
  return {
    transform: ({ schema, url }) => {
      collectNamedSchemas(schema, named);
      return { schema, url };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const doc = documentObject.openapiObject;
      const components = (doc.components ??= {}) as { schemas?: Record<string, unknown> };
      const schemas = (components.schemas ??= {});
      for (const [id, schema] of named) if (!(id in schemas)) schemas[id] = schema;
      return doc;
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portcullis',
        version: API_VERSION,
        description:
          'A governed HTTP front door for automation the host did not write: bundles, workflows, tools and evals ' +
          'under one bearer-token authentication, one ownership rule and one capability envelope. Errors are RFC 7807 ' +
          'problem documents (application/problem+json).',
      },
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
        { name: 'Bundles', description: 'Agent bundles: upload, runs, streams.' },
        { name: 'Workflows', description: 'DAG workflows: definitions, runs, approvals, streams.' },
        { name: 'Evals', description: 'Evaluation datasets and runs.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
