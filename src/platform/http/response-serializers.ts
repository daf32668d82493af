// Fastify's response serializer factory, as its default (@fastify/fast-json-stringify-compiler) builds
// it, but compiling serializationSchema() copies of the route's and the shared schemas: nullable and
// constant unions serialize without running ajv on every response. A payload marked immutableResponse (a
// finished run's poll answer, the same object on every poll) is serialized once per serializer.
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
    return remembersImmutable(fastJson(serializationSchema(schema) as Schema, { ...serializerOptions, schema: others }));
  };
}

const immutable = new WeakSet<object>();

/**
 * Deep-freezes a response object that will be answered again unchanged (a finished run's poll
 * projection) and marks it, so each route serializer writes its text once and reuses it.
 */
export function immutableResponse<T extends object>(value: T): T {
  deepFreeze(value);
  immutable.add(value);
  return value;
}

function deepFreeze(value: object): void {
  for (const member of Object.values(value)) if (typeof member === 'object' && member !== null) deepFreeze(member as object);
  Object.freeze(value);
}

/** The serializer, answering an immutableResponse it has written before with the same text. */
export function remembersImmutable(serialize: Serializer): Serializer {
  const written = new WeakMap<object, string>();
  return (data) => {
    if (typeof data !== 'object' || data === null || !immutable.has(data)) return serialize(data);
    let text = written.get(data);
    if (text === undefined) {
      text = serialize(data);
      written.set(data, text);
    }
    return text;
  };
}
