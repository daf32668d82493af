// The opaque `cursor` of list pages: the (createdAt, id) of the last record of the previous page,
// base64url-encoded. Providers decode it to continue strictly after that record in newest-first order.

export interface CursorPosition {
  readonly createdAt: number;
  readonly id: string;
}

export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  readonly code = 'invalid-cursor';
  constructor() {
    super('The cursor is not one this service issued.');
  }
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** Throws InvalidCursorError for anything that is not a cursor this service issued. */
export function decodeCursor(cursor: string): CursorPosition {
  if (cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursorError();
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    // falls through to the refusal
  }
  throw new InvalidCursorError();
}

/** Newest first: createdAt descending, then id descending. */
export function isAfterCursor(record: CursorPosition, cursor: CursorPosition): boolean {
  return record.createdAt < cursor.createdAt || (record.createdAt === cursor.createdAt && record.id < cursor.id);
}

export function compareNewestFirst(a: CursorPosition, b: CursorPosition): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
