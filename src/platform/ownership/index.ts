export type { Owner } from './owner.js';
