// Judges one decoded entry name on its own: absolute, drive and network paths, `..` segments (either
// separator, so a Windows-style traversal is still zip-slip), NUL and control characters, backslashes,
// empty and `.` segments, and the length limits. A trailing `/` marks a directory and is allowed.
import type { ArchiveGuard } from './archive-guard.js';

export const MAX_PATH_BYTES = 1024;
export const MAX_COMPONENT_BYTES = 255;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const DRIVE_PREFIX = /^[A-Za-z]:/;

export function checkEntryName(name: string): ArchiveGuard | null {
  if (name === '') return 'invalid-name';
  if (name.startsWith('/') || name.startsWith('\\') || DRIVE_PREFIX.test(name)) return 'absolute-path';
  if (name.split(/[/\\]/).includes('..')) return 'zip-slip';
  if (CONTROL_CHARACTER.test(name) || name.includes('\\')) return 'invalid-name';
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((segment) => segment === '' || segment === '.')) return 'invalid-name';
  if (Buffer.byteLength(name, 'utf8') > MAX_PATH_BYTES) return 'path-too-long';
  if (segments.some((segment) => Buffer.byteLength(segment, 'utf8') > MAX_COMPONENT_BYTES)) return 'path-too-long';
  return null;
}
