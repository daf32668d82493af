// Per host tool: granted or not under the caller's envelope, and the rule that decided it, for
// GET /api/capabilities. Explains, never widens: it is decideTool's verdict with a note on execution.
import { decideExecution } from './decide-execution.js';
import { decideTool } from './decide-tool.js';
import type { ResolvedEnvelope } from './resolved-envelope.js';

export interface ToolExplanation {
  name: string;
  granted: boolean;
  reason: string;
}

export function explainTools(envelope: ResolvedEnvelope, hostToolNames: readonly string[]): ToolExplanation[] {
  return hostToolNames.map((name) => {
    const visible = decideTool(envelope, name);
    const runnable = decideExecution(envelope, name);
    const note = visible.allowed && !runnable.allowed ? `; execution ${runnable.rule}` : '';
    return { name, granted: visible.allowed, reason: visible.rule + note };
  });
}
