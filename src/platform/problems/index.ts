export { problemCatalog, problemCodes, problemType, PROBLEM_TYPE_PREFIX, type ProblemCode, type ProblemEntry } from './catalog.js';
export { ProblemError, isProblemError, type ProblemErrorOptions } from './problem-error.js';
export {
  toProblem,
  problemDocument,
  PROBLEM_CONTENT_TYPE,
  GENERIC_INTERNAL_DETAIL,
  MAX_INSTANCE_LENGTH,
  type ProblemDocument,
  type RenderedProblem,
} from './problem-document.js';
