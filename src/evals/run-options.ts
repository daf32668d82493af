// Reads a start request's body and applies the count ceilings of Evaluation:* to it: a request over a
// ceiling is refused as a whole (400), never trimmed to fit. Every Max… is inclusive.
import { Compile } from '../platform/vendor/typebox.js';
import type { EvaluationConfig } from '../platform/config/types.js';
import { validationProblem } from '../platform/http/framework-errors.js';
import type { RunOptions } from './eval-run.js';
import { ceilingBreached } from './problems.js';
import { StartEvalRunRequestSchema, type StartEvalRunRequest } from './schemas.js';

export const DEFAULT_REPEATS = 1;
export const DEFAULT_PARALLELISM = 4;

const startRequest = Compile(StartEvalRunRequestSchema);

export function readStartRequest(body: unknown): StartEvalRunRequest {
  if (!startRequest.Check(body)) throw validationProblem('body', [...startRequest.Errors(body)].map((e) => ({ ...e })));
  return body;
}

export function readRunOptions(request: StartEvalRunRequest, config: EvaluationConfig): RunOptions {
  if (request.datasets.length > config.maxDatasetsPerRun) {
    throw ceilingBreached(`The run names ${request.datasets.length} datasets; Evaluation:MaxDatasetsPerRun allows ${config.maxDatasetsPerRun}.`);
  }
  if (request.repeats !== undefined && request.repeats > config.maxRepeats) {
    throw ceilingBreached(`repeats ${request.repeats} is above Evaluation:MaxRepeats (${config.maxRepeats}).`);
  }
  if (request.parallelism !== undefined && request.parallelism > config.maxParallelism) {
    throw ceilingBreached(`parallelism ${request.parallelism} is above Evaluation:MaxParallelism (${config.maxParallelism}).`);
  }
  return {
    ...(request.failOnRegression === undefined ? {} : { failOnRegression: request.failOnRegression }),
    ...(request.replay === undefined || request.replay === 'none' ? {} : { replay: request.replay }),
    repeats: request.repeats ?? DEFAULT_REPEATS,
    parallelism: request.parallelism ?? Math.min(DEFAULT_PARALLELISM, config.maxParallelism),
    failRateThreshold: request.failRateThreshold ?? 0,
    tagFilter: request.tagFilter ?? null,
  };
}
