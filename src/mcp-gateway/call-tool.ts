// A gateway `tools/call` is a direct invocation (DESIGN.md §15), surface `mcp`: the same gates, slots,
// deadline, governed call, sanitizers and truncation as POST /api/tools/{name}/invoke. Its answer is
// MCP's: the output as text, or — for a tool's failure and for every refusal the HTTP surface answers
// with a problem — `isError` with the very text HTTP gives (the `error`, or the problem's `detail`; the
// storage being unreachable included). Anything else is a bug, not a refusal, and propagates (the
// server answers a JSON-RPC internal error).
import type { CallToolResult } from '@modelcontextprotocol/server';
import { storageProblem, validationProblem } from '../platform/http/index.js';
import { isProblemError } from '../platform/problems/index.js';
import { invokeTool, TOOL_FAILURE_MESSAGE, type InvokeDependencies, type ToolInvocationRequest } from '../tools/index.js';
import { Compile } from '../platform/vendor/typebox.js';
import type { Caller } from './caller.js';
import { McpToolArgumentsSchema } from './schemas.js';

const toolArguments = Compile(McpToolArgumentsSchema);

export async function callTool(deps: InvokeDependencies, caller: Caller, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const answer = await invokeTool(deps, {
      surface: 'mcp',
      // The gateway being served is this surface's switch (DirectToolInvocation:Enabled governs POST …/invoke only).
      surfaceEnabled: true,
      principal: caller.principal,
      toolName: name,
      read: () => readArguments(args),
      onClientGone: (listener) => {
        signal.addEventListener('abort', listener, { once: true });
        return () => signal.removeEventListener('abort', listener);
      },
      requestId: caller.requestId,
    });
    return answer.succeeded ? { content: [{ type: 'text', text: answer.output ?? '' }] } : failed(answer.error ?? TOOL_FAILURE_MESSAGE);
  } catch (error) {
    const problem = isProblemError(error) ? error : storageProblem(error);
    if (problem !== undefined) return failed(problem.detail);
    throw error;
  }
}

function readArguments(args: unknown): ToolInvocationRequest {
  const given = args ?? {};
  if (!toolArguments.Check(given)) throw validationProblem('arguments', [...toolArguments.Errors(given)].map((e) => ({ ...e })));
  return given;
}

function failed(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
