// examples/ci/evals.yml is documented, not run here: this keeps its `portcullis` command lines
// parseable by the commands they name, so the example cannot drift from the CLI.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseCommand } from './command-spec.js';
import { EVAL_RUN_SPEC } from './run-eval.js';

describe('examples/ci/evals.yml', () => {
  it('runs the evals with options eval run accepts, writing the JUnit file it publishes', async () => {
    const workflow = parse(await readFile(join(import.meta.dirname, '..', '..', '..', 'examples', 'ci', 'evals.yml'), 'utf8')) as {
      jobs: Record<string, { steps: Array<{ run?: string; with?: Record<string, string> }> }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const line = steps.flatMap((step) => (step.run ?? '').split('\n')).find((l) => l.includes('portcullis eval run'))!;
    const args = line.slice(line.indexOf('portcullis eval run') + 'portcullis eval run'.length).trim().split(/\s+/);
    const parsed = parseCommand(EVAL_RUN_SPEC, args);
    expect(parsed.kind).toBe('run');
    const junit = parsed.kind === 'run' ? parsed.values.junit : undefined;
    expect(steps.some((step) => step.with?.report_paths === junit)).toBe(true);
  });
});
