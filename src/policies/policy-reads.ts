// What a policy's conditions can read of a request, from its JSON form. Cedar reads a record only by
// naming an attribute (`.name`, `has name`, `["name"]`), so an attribute whose name no policy writes
// cannot change a decision and need not be handed to Cedar — unless a policy observes a record whole
// (`==`, `!=`, `contains…` on a value that may be a record or hold records), which `observesRecords`
// reports. Also what the `like` bound needs: each pattern's length and where its text may come from.
import type { Expr, PatternElem, PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';

/** Where the text a `like` scans may come from: attribute names, principal tags, literals, or anywhere. */
export interface LikeRead {
  /** Pattern characters plus wildcards. */
  readonly patternLength: number;
  readonly attributes: readonly string[];
  readonly tags: boolean;
  readonly literal: number;
  readonly anywhere: boolean;
}

export interface PolicyReads {
  readonly names: ReadonlySet<string>;
  readonly usesTags: boolean;
  readonly observesRecords: boolean;
  readonly likes: readonly LikeRead[];
}

const WHOLE_VALUE_OPERATORS = new Set(['==', '!=', 'contains', 'containsAll', 'containsAny']);
const BINARY = new Set(['==', '!=', 'in', '<', '<=', '>', '>=', '&&', '||', '+', '-', '*', 'contains', 'containsAll', 'containsAny', 'getTag', 'hasTag']);

type Node = Readonly<Record<string, unknown>>;

/** `recordNames`: attribute names that hold a record or a set of records somewhere in the schema. */
export function readsOf(policy: PolicyJson, recordNames: ReadonlySet<string>): PolicyReads {
  const reads = { names: new Set<string>(), usesTags: false, observesRecords: false, likes: [] as LikeRead[] };
  const visit = (expr: Expr): void => {
    const [operator, operand] = entryOf(expr);
    if (operator === 'hasTag' || operator === 'getTag') reads.usesTags = true;
    if (operator === '.' || operator === 'has') for (const name of attributeNames(operand as Node)) reads.names.add(name);
    if (operator === 'like') reads.likes.push(likeRead(operand as { left: Expr; pattern: PatternElem[] }));
    if (WHOLE_VALUE_OPERATORS.has(operator)) {
      const { left, right } = operand as { left: Expr; right: Expr };
      if (mayHoldRecords(left, recordNames) || mayHoldRecords(right, recordNames)) reads.observesRecords = true;
    }
    for (const child of childrenOf(operator, operand)) visit(child);
  };
  for (const clause of policy.conditions) visit(clause.body);
  return reads;
}

function entryOf(node: Node): [string, unknown] {
  const [entry] = Object.entries(node);
  return entry ?? ['', undefined];
}

function attributeNames(operand: Node): readonly string[] {
  const attr = operand['attr'];
  return Array.isArray(attr) ? attr.filter((name) => typeof name === 'string') : typeof attr === 'string' ? [attr] : [];
}

/** The sub-expressions of one node, whatever its operator (extension calls: their arguments). */
function childrenOf(operator: string, operand: unknown): Expr[] {
  if (operator === 'Value' || operator === 'Var' || operator === 'Slot') return [];
  if (operator === 'Set' || Array.isArray(operand)) return operand as Expr[];
  if (operator === 'Record') return Object.values(operand as Record<string, Expr>);
  const node = operand as Node;
  if (operator === 'if-then-else') return [node['if'], node['then'], node['else']] as Expr[];
  if (BINARY.has(operator)) return [node['left'], node['right']] as Expr[];
  return ['left', 'arg', 'in'].flatMap((key) => (node[key] === undefined ? [] : [node[key] as Expr]));
}

/** Whether an expression's value may be, or hold, a record (so `==` on it would see attributes pruned away). */
function mayHoldRecords(expr: Expr, recordNames: ReadonlySet<string>): boolean {
  const [operator, operand] = entryOf(expr);
  switch (operator) {
    case 'Var':
      return operand === 'context';
    case '.':
      return recordNames.has((operand as { attr: string }).attr);
    case 'Record':
      return true;
    case 'Value':
      return typeof operand === 'object' && operand !== null;
    case 'Set':
      return (operand as Expr[]).some((member) => mayHoldRecords(member, recordNames));
    case 'if-then-else': {
      const branches = operand as { then: Expr; else: Expr };
      return mayHoldRecords(branches.then, recordNames) || mayHoldRecords(branches.else, recordNames);
    }
    default:
      return false;
  }
}

function likeRead({ left, pattern }: { left: Expr; pattern: PatternElem[] }): LikeRead {
  const patternLength = pattern.reduce((sum, element) => sum + (element === 'Wildcard' ? 1 : element.Literal.length), 0);
  const source = { attributes: [] as string[], tags: false, literal: 0, anywhere: false };
  const trace = (expr: Expr): void => {
    const [operator, operand] = entryOf(expr);
    if (operator === '.') source.attributes.push((operand as { attr: string }).attr);
    else if (operator === 'getTag') source.tags = true;
    else if (operator === 'Value' && typeof operand === 'string') source.literal = Math.max(source.literal, operand.length);
    else if (operator === 'if-then-else') {
      const branches = operand as { then: Expr; else: Expr };
      trace(branches.then);
      trace(branches.else);
    } else source.anywhere = true;
  };
  trace(left);
  return { patternLength, ...source };
}
