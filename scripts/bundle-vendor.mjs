// The build's last step for the service: each module of src/platform/vendor/ re-exports the few things
// we use of a package that loads far more than that (TypeBox: about 700 modules; the AI SDK's provider
// utilities: zod v3 and v4). tsc compiles it to a plain re-export; this script replaces that output in
// dist/ with one tree-shaken esbuild bundle of what it exports, so the service loads one module where
// it loaded hundreds (decision 3605). What stays shared is named in SHARED: a package whose classes
// the rest of the service checks with `instanceof` (the AI SDK's error classes) must be one copy.
//
//   node scripts/bundle-vendor.mjs       after `tsc -p tsconfig.build.json` (the `build` script)
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const vendorDir = join(root, 'dist', 'src', 'platform', 'vendor');

/** Packages a vendor bundle imports rather than copies. */
const SHARED = ['@ai-sdk/provider'];

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

for (const name of readdirSync(vendorDir).filter((file) => file.endsWith('.js')).sort()) {
  const file = join(vendorDir, name);
  const result = await build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    legalComments: 'inline',
    metafile: true,
    logLevel: 'warning',
    // Node's own conditions: without a custom list esbuild would also honour bundlers' `module`.
    conditions: ['node'],
    external: [...SHARED, ...SHARED.map((pkg) => `${pkg}/*`)],
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
  const unexpected = imports.filter((path) => !builtins.has(path) && !SHARED.some((pkg) => path === pkg || path.startsWith(`${pkg}/`)));
  if (unexpected.length > 0) throw new Error(`${name}: the bundle imports ${unexpected.join(', ')}, which is neither built in nor shared`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  const inputs = Object.keys(result.metafile.inputs).length;
  console.log(`vendor: ${name} — ${inputs} modules → 1 (${Math.round(bytes / 1024)} KiB with its source map)`);
}
