// What a condition reads of the run: whether it mentions `input` at all, the steps it names
// (`steps.<name>`, `steps["<name>"]`), and whether it reaches `steps` any other way (a computed key,
// `steps` passed whole), in which case every step may be read. Submit checks the named steps exist
// upstream; a run sends the condition's evaluator only what it reads.
import type { ASTNode } from '@marcbachmann/cel-js';

export interface ConditionReads {
  readonly input: boolean;
  readonly namedSteps: readonly string[];
  readonly allSteps: boolean;
}

export function conditionReads(ast: ASTNode): ConditionReads {
  const names = new Set<string>();
  let input = false;
  let allSteps = false;
  const visit = (node: unknown, parent: ASTNode | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, parent);
      return;
    }
    if (!isNode(node)) return;
    if (node.op === 'id' && node.args === 'input') input = true;
    if (node.op === 'id' && node.args === 'steps' && (parent === undefined || staticKey(parent, node) === undefined)) allSteps = true;
    if ((node.op === '.' || node.op === '[]') && isStepsRoot(node.args[0])) {
      const key = staticKey(node, node.args[0]);
      if (key !== undefined) names.add(key);
    }
    visit(node.args, node);
  };
  visit(ast, undefined);
  return { input, namedSteps: [...names], allSteps };
}

/** The name `access` reads off `object` when it is `object.<name>` or `object["<name>"]`. */
function staticKey(access: ASTNode, object: ASTNode): string | undefined {
  if (access.op === '.' && access.args[0] === object) return access.args[1];
  if (access.op === '[]' && access.args[0] === object && access.args[1].op === 'value' && typeof access.args[1].args === 'string') return access.args[1].args;
  return undefined;
}

function isStepsRoot(node: ASTNode): boolean {
  return node.op === 'id' && node.args === 'steps';
}

function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value;
}
