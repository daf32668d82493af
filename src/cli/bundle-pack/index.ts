// Public surface of `portcullis bundle …`.
export { runBundle } from './run-bundle.js';
export { runBundlePack, BUNDLE_PACK_USAGE } from './run-bundle-pack.js';
export { checkArchive, DEFAULT_ARCHIVE_LIMITS } from './check-archive.js';
export { zipFolder } from './zip-folder.js';
export type { PackIo } from './pack-io.js';
