// Builds the web console into dist/console (served by the service at /console/). Run from the repo
// root as `vite build console`. No inline script or style, no data: URIs: the service's
// Content-Security-Policy allows scripts and styles from its own origin only.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
