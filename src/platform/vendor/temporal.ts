// The Temporal polyfill (the clock tool's zones and calendars), imported through this module alone:
// the build bundles it (scripts/bundle-vendor.mjs; decision 3605), one module instead of ten.
export { Temporal } from 'temporal-polyfill';
