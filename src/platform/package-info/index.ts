export { packageInfo, type PackageInfo } from './package-info.js';
