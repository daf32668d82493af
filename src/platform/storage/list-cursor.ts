// The opaque `cursor` of list pages: the (createdAt, id) of the last record of the previous page, as
// `<createdAt>.<id in base64url>`. Every text of that form is a position (CURSOR_PATTERN is what the
// list routes document), so the schema and the stores agree on which cursors are accepted: a forged
// one only moves where the caller's own list starts. Providers continue strictly after the position
// in newest-first order.

export interface CursorPosition {
  readonly createdAt: number;
  readonly id: string;
}

/** The form of a cursor: at most 15 digits (so a safe integer), a dot, base64url. */
export const CURSOR_PATTERN = '^[0-9]{1,15}\\.[A-Za-z0-9_-]*$';
const CURSOR = new RegExp(CURSOR_PATTERN);
export const MAX_CURSOR_LENGTH = 1024;

export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  readonly code = 'invalid-cursor';
  constructor() {
    super('The cursor is not one this service issued.');
  }
}

export function encodeCursor(position: CursorPosition): string {
  return `${position.createdAt}.${Buffer.from(position.id, 'utf8').toString('base64url')}`;
}

/** Throws InvalidCursorError for text not of the cursor form; any text of that form is a position. */
export function decodeCursor(cursor: string): CursorPosition {
  if (cursor.length > MAX_CURSOR_LENGTH || !CURSOR.test(cursor)) throw new InvalidCursorError();
  const [createdAt = '', encoded = ''] = cursor.split('.');
  const id = Buffer.from(encoded, 'base64url').toString('utf8');
  // No stored id holds U+0000 (storable-key.ts), so none sorts between 'ab\0…' and 'ab\x01': the same
  // position, and one PostgreSQL can compare.
  const nul = id.indexOf('\u0000');
  return { createdAt: Number(createdAt), id: nul === -1 ? id : `${id.slice(0, nul)}\u0001` };
}

/** Newest first: createdAt descending, then id descending. */
export function isAfterCursor(record: CursorPosition, cursor: CursorPosition): boolean {
  return record.createdAt < cursor.createdAt || (record.createdAt === cursor.createdAt && record.id < cursor.id);
}

export function compareNewestFirst(a: CursorPosition, b: CursorPosition): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
