// The eval family (SPEC.md "Evals", DESIGN.md §7): datasets, assertions, a parallel runner with
// repeats, verdicts, cost, reports and cancel. Nothing imports evals; the composition root calls
// registerEvals.
export { registerEvals, type EvalFeature } from './register-evals.js';
