// The closed list of archive guards and the one fixed, caller-safe sentence each answers with. A
// detail names its guard and says what it checks; it never carries archive content or library text.
export type ArchiveGuard =
  | 'too-large'
  | 'empty'
  | 'not-a-zip'
  | 'truncated'
  | 'trailing-data'
  | 'fake-eocd'
  | 'leading-data'
  | 'unaccounted-data'
  | 'malformed-archive'
  | 'too-many-entries'
  | 'expands-too-far'
  | 'compression-ratio'
  | 'overlapping-entries'
  | 'header-mismatch'
  | 'size-mismatch'
  | 'crc-mismatch'
  | 'corrupt-data'
  | 'encrypted-entry'
  | 'unsupported-method'
  | 'zip-slip'
  | 'absolute-path'
  | 'invalid-name'
  | 'unicode-path-mismatch'
  | 'path-too-long'
  | 'duplicate-entry'
  | 'name-conflict'
  | 'entry-type-mismatch'
  | 'special-file'
  | 'escaping-symlink'
  | 'symlink-loop'
  | 'unresolvable-symlink'
  | 'missing-agent-manifest'
  | 'agent-manifest-not-regular'
  | 'skill-manifest-not-regular'
  | 'invalid-agent-manifest'
  | 'unresolvable-agent-id';

const reasons: Readonly<Record<ArchiveGuard, string>> = {
  'too-large': 'the upload is larger than the maximum archive size',
  empty: 'the upload is empty',
  'not-a-zip': 'the upload is not a zip archive',
  truncated: 'the archive ends before its structure is complete',
  'trailing-data': 'bytes follow the end-of-central-directory record',
  'fake-eocd': 'the end-of-central-directory record is ambiguous or does not describe the archive',
  'leading-data': 'bytes precede the first entry, such as a stub or another archive',
  'unaccounted-data': 'the archive holds bytes that belong to no entry',
  'malformed-archive': 'the archive structure could not be read',
  'too-many-entries': 'the archive has more entries than allowed',
  'expands-too-far': 'the archive would expand past the maximum total size',
  'compression-ratio': 'an entry or the whole archive expands by more than the maximum compression ratio',
  'overlapping-entries': 'entries share or overlap their stored data',
  'header-mismatch': 'a local header disagrees with the central directory',
  'size-mismatch': 'an entry does not match its declared size',
  'crc-mismatch': 'an entry does not match its declared checksum',
  'corrupt-data': 'compressed entry data could not be decoded',
  'encrypted-entry': 'the archive contains an encrypted entry',
  'unsupported-method': 'an entry uses a compression method other than stored or deflate',
  'zip-slip': 'an entry would be written outside the staging directory',
  'absolute-path': 'an entry name is an absolute, drive or network path',
  'invalid-name': 'an entry name is empty, has empty or dot segments, or contains NUL, control characters, backslashes or invalid UTF-8',
  'unicode-path-mismatch': 'a Unicode path extra field disagrees with its entry name',
  'path-too-long': 'an entry name has a component over 255 bytes or a path over 1024 bytes',
  'duplicate-entry': 'two entries have the same name, or names equal after case folding and Unicode normalization',
  'name-conflict': 'one name is used both as a file or link and as a directory',
  'entry-type-mismatch': 'an entry name and its file-type attributes disagree',
  'special-file': 'the archive contains a device, FIFO, socket or other non-regular file',
  'escaping-symlink': 'a symbolic link resolves outside the staging directory',
  'symlink-loop': 'symbolic links form a loop',
  'unresolvable-symlink': 'a symbolic link target is malformed or names nothing in the archive',
  'missing-agent-manifest': 'there is no AGENT.md at the archive root',
  'agent-manifest-not-regular': 'AGENT.md is not a regular file',
  'skill-manifest-not-regular': 'a SKILL.md is not a regular file',
  'invalid-agent-manifest': 'AGENT.md or its front matter is malformed',
  'unresolvable-agent-id': 'no agent id could be resolved from the AGENT.md front matter or the upload name',
};

/** Every guard, in declaration order (the guard tests check each one is exercised). */
export const archiveGuards = Object.freeze(Object.keys(reasons) as ArchiveGuard[]);

/**
 * The fixed `detail` for a guard, e.g. `The archive was rejected by the zip-slip guard: …`. A `hint`
 * (a line number or a field name, never archive content) may say where the guard tripped.
 */
export function archiveGuardDetail(guard: ArchiveGuard, hint?: string): string {
  return `The archive was rejected by the ${guard} guard: ${reasons[guard]}${hint === undefined ? '' : ` (${hint})`}.`;
}
