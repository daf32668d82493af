// `llm-rubric`: the configured chat model grades the output against the rubric and answers pass or
// fail with a reason. A grader that fails or answers something that is not a verdict makes the case
// errored (it could not be judged), never passed or failed. Grading tokens are reported with the run.
import { ChatModelError, isSpendLimit, type ChatModel, type TokenUsage } from '../../models/index.js';
import { SPEND_LIMIT_REACHED } from '../../platform/spend/index.js';
import { redactText } from '../../platform/redaction/index.js';
import type { AssertionVerdict } from './assertion.js';
import { parseGrade } from './parse-grade.js';

export const GRADER_SYSTEM_PROMPT = [
  'You grade the output of an AI assistant against a rubric.',
  'Decide whether the output satisfies the rubric. Reply with exactly one JSON object and nothing else:',
  '{"pass": true or false, "reason": "one short sentence explaining the decision"}',
].join('\n');

/** The offline model echoes unless its script has a rule for the grading prompt (README, "Write a dataset"). */
const SCRIPTED_HINT = ' (the Scripted model grades only through a rule of ChatModel:ScriptPath matching ^Rubric:; or configure a real chat model)';

/** Grading could not produce a verdict; `message` is caller-safe. */
export class GradingFailed extends Error {
  readonly usage: TokenUsage;
  constructor(message: string, usage: TokenUsage) {
    super(message);
    this.name = 'GradingFailed';
    this.usage = usage;
  }
}

export interface GradeResult {
  readonly verdict: AssertionVerdict;
  readonly usage: TokenUsage;
}

export async function gradeRubric(model: ChatModel, rubric: string, output: string, signal: AbortSignal): Promise<GradeResult> {
  const prompt = `Rubric:\n${rubric}\n\nOutput to grade:\n<<<\n${output}\n>>>`;
  let reply = '';
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  try {
    const parts = model.stream({
      messages: [
        { role: 'system', content: GRADER_SYSTEM_PROMPT },
        { role: 'user', content: prompt },
      ],
      tools: [],
      signal,
    });
    for await (const part of parts) {
      if (part.type === 'text-delta') reply += part.delta;
      else if (part.type === 'finish') usage = part.usage;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    if (isSpendLimit(error)) throw new GradingFailed(SPEND_LIMIT_REACHED, usage);
    if (error instanceof ChatModelError) throw new GradingFailed(`the llm-rubric grader failed: ${redactText(error.message)}`, usage);
    throw error;
  }
  const grade = parseGrade(reply);
  if (grade === null) throw new GradingFailed(`the llm-rubric grader’s reply was not a pass/fail verdict${model.provider === 'Scripted' ? SCRIPTED_HINT : ''}`, usage);
  const reason = redactText(grade.reason);
  return { verdict: grade.pass ? { passed: true, reason } : { passed: false, reason }, usage };
}
