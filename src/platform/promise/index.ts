export { promiseOf } from './promise-of.js';
