// Filesystem paths, resolved against the working directory the configuration was loaded from, so
// no other module needs to know it. Existence is not checked here: roots are created or checked
// by the features that use them (staging creates TempRoot, readiness checks roots).
import { resolve } from 'node:path';
import { accept, isBlank, refuse, type Codec, type DecodeContext } from './codec.js';

function resolvePath(raw: unknown, { cwd }: DecodeContext): string | null {
  return typeof raw === 'string' && raw.trim() !== '' ? resolve(cwd, raw) : null;
}

/** Blank stays the empty string (TempRoot: "empty means the system temp directory"). */
export const pathOrEmptyCodec: Codec<string> = {
  display: 'path',
  decode(raw, context) {
    if (isBlank(raw)) return accept('');
    const path = resolvePath(raw, context);
    return path === null ? refuse('must be a path') : accept(path);
  },
};

export const optionalPathCodec: Codec<string | null> = {
  display: 'path, optional',
  decode(raw, context) {
    if (isBlank(raw)) return accept(null);
    const path = resolvePath(raw, context);
    return path === null ? refuse('must be a path') : accept(path);
  },
};

export const requiredPathCodec: Codec<string> = {
  display: 'path',
  decode(raw, context) {
    const path = resolvePath(raw, context);
    return path === null ? refuse('must be a non-empty path') : accept(path);
  },
};
