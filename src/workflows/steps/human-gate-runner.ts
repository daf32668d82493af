// HumanGate: parks the step until its approval is decided. Approve succeeds with `{ decision,
// comment }`; Reject, or the timeout expiring (which counts as a rejection), fails the step.
import { parseTimeSpan } from '../../platform/config/index.js';
import { renderText } from '../definition/render-template.js';
import type { HumanGateConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { APPROVAL_REJECTED, APPROVAL_TIMED_OUT } from './step-failures.js';
import { templateScope } from './template-scope.js';

export function createHumanGateRunner(): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as HumanGateConfiguration;
    const timeoutMs = configuration.timeout === undefined ? undefined : (parseTimeSpan(configuration.timeout) ?? undefined);
    const decision = await context.awaitApproval({ message: renderText(configuration.message, templateScope(context)), timeoutMs });
    const output = { decision: decision.decision, comment: decision.comment };
    if (decision.decision === 'Approve') return { ok: true, output };
    return { ok: false, error: decision.timedOut ? APPROVAL_TIMED_OUT : APPROVAL_REJECTED, output };
  };
}
