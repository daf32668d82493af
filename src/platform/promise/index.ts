export { promiseOf } from './promise-of.js';
export { withinGrace } from './within-grace.js';
