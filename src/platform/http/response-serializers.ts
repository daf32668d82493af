// Fastify's response serializer factory, as its default (@fastify/fast-json-stringify-compiler) builds
// it, but compiling serializationSchema() copies of the route's and the shared schemas: nullable and
// constant unions serialize without running ajv on every response.
import fastJson, { type Options, type Schema } from 'fast-json-stringify';
import { serializationSchema } from './serialization-schema.js';

type Serializer = (data: unknown) => string;

export function buildResponseSerializers(externalSchemas?: unknown, serializerOptions?: Options): (route: { schema?: unknown }) => Serializer {
  const shared: Record<string, Schema> = Object.fromEntries(
    Object.entries((externalSchemas ?? {}) as Record<string, unknown>).map(([id, schema]) => [id, serializationSchema(schema) as Schema]),
  );
  return ({ schema }) => {
    // As the default factory does: a route schema that is also a shared one is not passed twice.
    const id = (schema as { $id?: unknown }).$id;
    const others = typeof id === 'string' && id in shared ? Object.fromEntries(Object.entries(shared).filter(([key]) => key !== id)) : shared;
    return fastJson(serializationSchema(schema) as Schema, { ...serializerOptions, schema: others });
  };
}
