// TypeBox's runtime (the `Type` builder and `Compile`), imported through this module alone. TypeBox
// ships about 700 small ES modules, and importing `typebox` loads nearly all of them: 18.7 MB of RSS
// in a bare process. The build replaces this module's output with one tree-shaken bundle of what it
// exports (scripts/bundle-vendor.mjs): 4.6 MB. Types still come from 'typebox' (`import type`).
export { Type } from 'typebox';
export { Compile } from 'typebox/compile';
