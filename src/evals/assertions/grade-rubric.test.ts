import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../models/index.js';
import { gradeRubric } from './grade-rubric.js';

const never = new AbortController().signal;

describe('gradeRubric with the offline Scripted model', () => {
  it('says how to make the Scripted model grade when its echo is not a verdict', async () => {
    await expect(gradeRubric(createScriptedModel(), 'Mentions Paris.', 'Paris', never)).rejects.toThrow(
      'the llm-rubric grader’s reply was not a pass/fail verdict (the Scripted model grades only through a rule of ChatModel:ScriptPath matching ^Rubric:; or configure a real chat model)',
    );
  });

  it('grades through a script rule that matches the grading prompt, as the README shows', async () => {
    const model = createScriptedModel({ rules: [{ when: /^Rubric:/i, reply: '{"pass": true, "reason": "scripted grade"}' }] });
    await expect(gradeRubric(model, 'Mentions Paris.', 'Paris', never)).resolves.toMatchObject({ verdict: { passed: true, reason: 'scripted grade' } });
  });
});
