// The tools a conversation may use, as the caller hands them in: the effective tool set only (request ∩
// grant), already resolved. The loop never looks tools up anywhere else and never imports `tools/`.
import type { JsonSchema } from '../../models/index.js';

export interface AgentToolOperation {
  readonly name: string;
  readonly description: string;
  /** Schema of the operation's `parameters` object. */
  readonly parameters: JsonSchema;
}

export interface AgentTool {
  /** Exactly the catalog name; the model sees it as the function name and `toolCallName`. */
  readonly name: string;
  readonly description: string;
  readonly operations: readonly AgentToolOperation[];
}
