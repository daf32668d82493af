// HumanGate: parks the step until its approval is decided. Approve succeeds with `{ decision,
// comment }` (a gate with a responseSchema: `{ decision, comment, payload }`, the payload the decision
// carried, null on a rejection); Reject, or the timeout expiring (which counts as a rejection), fails
// the step. The gate's own approverRoles and responseSchema go with its approval (DESIGN.md §13).
import { parseTimeSpan } from '../../platform/config/index.js';
import { renderText } from '../definition/render-template.js';
import type { HumanGateConfiguration } from '../definition/workflow-definition.js';
import type { StepOutcome, StepRunner } from '../engine/step-runner.js';
import { APPROVAL_REJECTED, APPROVAL_TIMED_OUT, templateTooLarge } from './step-failures.js';
import type { StepLimits } from './step-limits.js';
import { templateScope } from './template-scope.js';

export function createHumanGateRunner(limits: Pick<StepLimits, 'maxRenderedTemplateBytes'>): StepRunner {
  return async (context): Promise<StepOutcome> => {
    const configuration = context.step.configuration as HumanGateConfiguration;
    const timeoutMs = configuration.timeout === undefined ? undefined : (parseTimeSpan(configuration.timeout) ?? undefined);
    const message = renderText(configuration.message, templateScope(context), limits.maxRenderedTemplateBytes);
    if (message === undefined) return { ok: false, error: templateTooLarge(limits.maxRenderedTemplateBytes) };
    const { responseSchema, approverRoles } = configuration;
    const decision = await context.awaitApproval({
      message,
      timeoutMs,
      ...(responseSchema === undefined ? {} : { responseSchema }),
      ...(approverRoles === undefined ? {} : { approverRoles }),
    });
    const output =
      responseSchema === undefined
        ? { decision: decision.decision, comment: decision.comment }
        : { decision: decision.decision, comment: decision.comment, payload: decision.payload ?? null };
    if (decision.decision === 'Approve') return { ok: true, output };
    return { ok: false, error: decision.timedOut ? APPROVAL_TIMED_OUT : APPROVAL_REJECTED, output };
  };
}
