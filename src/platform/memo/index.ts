export { madeOnce } from './frozen-memo.js';
