// The query of every list route (DESIGN §12): `limit` 1..200 (default 50, outside it 400) and the
// opaque `cursor` of the previous page, whose documented form is exactly what the stores accept. Query
// strings are text, so list routes validate with a compiler that coerces `limit` to an integer (every
// other route validates bodies strictly, without coercion).
import { Ajv } from 'ajv';
import type { FastifySchema } from 'fastify';
import { Type } from '../vendor/typebox.js';
import type { Static } from 'typebox';
import { CURSOR_PATTERN, MAX_CURSOR_LENGTH } from '../storage/index.js';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export const PageQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT, description: 'Page size, 1..200 (default 50).' })),
    cursor: Type.Optional(
      Type.String({ maxLength: MAX_CURSOR_LENGTH, pattern: CURSOR_PATTERN, description: 'The `nextCursor` of the previous page (any text of this form is accepted).' }),
    ),
  },
  { additionalProperties: false },
);

export type PageQuery = Static<typeof PageQuerySchema>;

const coercing = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, removeAdditional: false });

/** The route-level validator compiler of list routes: coerces query text to the declared types. */
export const listValidatorCompiler = ({ schema }: { schema: FastifySchema }) => coercing.compile(schema as object);

export function pageOf(query: PageQuery): { readonly limit: number; readonly cursor: string | null } {
  return { limit: query.limit ?? DEFAULT_PAGE_LIMIT, cursor: query.cursor ?? null };
}
