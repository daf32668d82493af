// The guards an entry trips on its flags and method alone: any kind of encryption (traditional,
// strong, masked central directory) and any method but stored or deflate (patched data included).
import type { ArchiveGuard } from './archive-guard.js';
import {
  FLAG_ENCRYPTED,
  FLAG_MASKED_HEADERS,
  FLAG_PATCHED_DATA,
  FLAG_STRONG_ENCRYPTION,
  METHOD_DEFLATED,
  METHOD_STORED,
} from './zip-format.js';

const ENCRYPTION_FLAGS = FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS;

export function checkEntryFlags(flags: number, method: number): ArchiveGuard | null {
  if ((flags & ENCRYPTION_FLAGS) !== 0) return 'encrypted-entry';
  if ((method !== METHOD_STORED && method !== METHOD_DEFLATED) || (flags & FLAG_PATCHED_DATA) !== 0) return 'unsupported-method';
  return null;
}
