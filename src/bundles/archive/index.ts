// Public surface of archive staging: the guards, the limits, the staging entry point, the staging-root
// overlap check and the thread that writes staged files.
export { type ArchiveGuard, archiveGuards, archiveGuardDetail } from './archive-guard.js';
export { ArchiveRejected, isArchiveRejected, type ArchiveRejectedOptions } from './archive-rejected.js';
export { type ArchiveLimits, COMPRESSION_RATIO_FLOOR_BYTES } from './archive-limits.js';
export { stageArchive, type StageArchiveInput, type StagedBundle } from './stage-archive.js';
export { checkStagingRoot } from './check-staging-root.js';
export { StagingWriter } from './staging-writer.js';
