// Checks every assertion type that needs no model against one observation. Reasons are short and
// caller-safe: they quote the expectation (dataset content), never more than a snippet of the output.
import { isDeepStrictEqual } from 'node:util';
import type { Assertion, AssertionVerdict, Observation } from './assertion.js';
import { isModelStep } from '../recording/recording.js';
import { parseJsonOutput } from './parse-json-output.js';
import { compiledPattern, compiledSchema } from './compiled-assertions.js';

const PASSED: AssertionVerdict = { passed: true };
const MAX_QUOTE = 120;

const quote = (text: string): string => JSON.stringify(text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text);
const failed = (reason: string): AssertionVerdict => ({ passed: false, reason });
const verdict = (ok: boolean, reason: () => string): AssertionVerdict => (ok ? PASSED : failed(reason()));

export function checkAssertion(assertion: Exclude<Assertion, { type: 'llm-rubric' }>, seen: Observation): AssertionVerdict {
  const { output } = seen;
  switch (assertion.type) {
    case 'equals':
      return verdict(equalsExpected(assertion.value, output), () => `expected the output to equal ${quote(stringify(assertion.value))}`);
    case 'contains':
      return verdict(output.includes(assertion.value), () => `expected the output to contain ${quote(assertion.value)}`);
    case 'icontains':
      return verdict(output.toLowerCase().includes(assertion.value.toLowerCase()), () => `expected the output to contain ${quote(assertion.value)} (any case)`);
    case 'not-contains':
      return verdict(!output.includes(assertion.value), () => `expected the output not to contain ${quote(assertion.value)}`);
    case 'regex':
      return verdict(compiledPattern(assertion.value, assertion.flags).test(output), () => `expected the output to match /${assertion.value}/${assertion.flags}`);
    case 'is-json':
      return verdict(parseJsonOutput(output).ok, () => 'expected the output to be JSON');
    case 'json-schema':
      return checkSchema(compiledSchema(assertion.schema), output);
    case 'tool-called':
      return verdict(seen.toolsCalled.has(assertion.value.toLowerCase()), () => {
        const called = [...seen.toolsCalled].join(', ') || 'none';
        return `expected tool ${quote(assertion.value)} to be called (called: ${called})`;
      });
    case 'max-latency-ms':
      return verdict(seen.latencyMs <= assertion.value, () => `latency ${seen.latencyMs} ms exceeds ${assertion.value} ms`);
    case 'max-cost-usd':
      return verdict(seen.costUsd <= assertion.value, () => `cost $${seen.costUsd} exceeds $${assertion.value}`);
    case 'matches-recording':
      return matchesRecording(seen);
  }
}

/** The same tool calls as recorded (tool and operation, in order); with the model replayed, the same final answer too. */
function matchesRecording(seen: Observation): AssertionVerdict {
  if (seen.recording === undefined) return failed('the case has no recording to match');
  const recorded = seen.recording.steps.flatMap((step) => (isModelStep(step) ? [] : [`${step.tool}.${step.operation}`]));
  const made = seen.toolCalls.map((call) => `${call.tool}.${call.operation}`);
  if (!isDeepStrictEqual(recorded, made)) {
    return failed(`expected the recorded tool calls [${recorded.join(', ') || 'none'}], the run made [${made.join(', ') || 'none'}]`);
  }
  if (!seen.recording.modelReplayed) return PASSED;
  const answers = seen.recording.steps.filter(isModelStep);
  const last = answers.at(-1)?.model.text ?? '';
  return verdict(seen.output === last, () => `expected the recorded final answer ${quote(last)}`);
}

/** A string expectation compares text exactly; any other JSON value compares with the output parsed as JSON. */
function equalsExpected(expected: unknown, output: string): boolean {
  if (typeof expected === 'string') return output === expected;
  const parsed = parseJsonOutput(output);
  return parsed.ok && isDeepStrictEqual(parsed.value, expected);
}

function checkSchema(validate: ReturnType<typeof compiledSchema>, output: string): AssertionVerdict {
  const parsed = parseJsonOutput(output);
  if (!parsed.ok) return failed('expected the output to be JSON matching the schema');
  if (validate(parsed.value)) return PASSED;
  const issues = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  return failed(`the output does not match the schema: ${issues.join('; ')}`);
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
