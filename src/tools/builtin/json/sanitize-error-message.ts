// Makes a library's error message safe to hand back as a tool error: one line, no control characters,
// bounded length. It never sees stacks (workers send messages only) and does not redact secrets.
const MAX_LENGTH = 300;

export function sanitizeErrorMessage(message: string): string {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const oneLine = message.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_LENGTH ? `${oneLine.slice(0, MAX_LENGTH - 1)}…` : oneLine || 'unknown error';
}
