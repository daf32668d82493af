// What a condition's work is known to be before it runs, from its syntax alone: evaluation steps as
// fixed + perItem·n, where n is the size of the run data (input, step outputs) it iterates, plus whether
// some term grows as n² or faster. Comprehensions (all, exists, exists_one, map, filter) multiply their
// body's work by what they iterate: a literal's length, n for data, and for a part of an element of data
// already being iterated, n shared by all elements (an order's items, summed over every order, are part
// of the data). It does not price the work of one step (`in`, string functions, `+` of lists): that
// depends on values, and the run-time budget (steps/condition-evaluator.ts) covers it.
import type { ASTNode } from '@marcbachmann/cel-js';

// A step (one node evaluated once) takes 10–30 ns: a million is tens of milliseconds on the evaluator's
// thread. Per item of data the budget is looser, since n is usually small; large n meets the time limit.
/** Steps a condition may take regardless of the data: 256 × 256 literal iterations pass, 256³ do not. */
export const MAX_FIXED_STEPS = 1_000_000;
/** Steps a condition may take per item of run data it iterates. */
export const MAX_STEPS_PER_ITEM = 1_000;

export interface Work {
  readonly fixed: number;
  readonly perItem: number;
  /** Some term is n² or worse: iterating data inside an iteration over data. */
  readonly superlinear: boolean;
}

/** What iterating a value costs each time the comprehension runs. */
type Shape =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'literal'; readonly length: number; readonly element: Shape }
  | { readonly kind: 'data'; readonly element?: Shape }
  /** Part of an element of data iterated by a loop run `loop` times, with only literal loops (product `factor`) entered since. */
  | { readonly kind: 'part'; readonly loop: Work; readonly factor: number };

type Scope = ReadonlyMap<string, Shape>;

interface Visited {
  readonly work: Work;
  readonly shape: Shape;
}

const ONE: Work = { fixed: 1, perItem: 0, superlinear: false };
const SCALAR: Shape = { kind: 'scalar' };
const DATA: Shape = { kind: 'data' };
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

export type CostVerdict = { readonly ok: true; readonly work: Work } | { readonly ok: false; readonly work: Work; readonly message: string };

export function conditionCost(ast: ASTNode): CostVerdict {
  const { work } = visit(ast, new Map(), ONE);
  if (work.superlinear) {
    return { ok: false, work, message: 'it iterates over run data inside an iteration over run data, so its work grows with the square of the input or faster' };
  }
  if (work.perItem > MAX_STEPS_PER_ITEM) {
    return { ok: false, work, message: `it takes about ${Math.round(work.perItem)} steps per item of run data it iterates; at most ${MAX_STEPS_PER_ITEM} are allowed` };
  }
  if (work.fixed > MAX_FIXED_STEPS) {
    return { ok: false, work, message: `its iterations over literal lists take about ${Math.round(work.fixed)} steps; at most ${MAX_FIXED_STEPS} are allowed` };
  }
  return { ok: true, work };
}

/** The work of evaluating `node` `times` times over, and the shape of its value. */
function visit(node: ASTNode, scope: Scope, times: Work): Visited {
  switch (node.op) {
    case 'value':
      return { work: times, shape: SCALAR };
    case 'id':
      return { work: times, shape: scope.get(node.args) ?? DATA };
    case 'list':
      return aggregate(times, node.args.map((element) => visit(element, scope, times)));
    case 'map':
      return aggregate(times, node.args.flat().map((part) => visit(part, scope, times)), node.args.length);
    case '.':
    case '.?': {
      const inner = visit(node.args[0], scope, times);
      return { work: sum(times, inner.work), shape: member(inner.shape) };
    }
    case '[]':
    case '[?]': {
      const [inner, key] = node.args.map((operand) => visit(operand, scope, times)) as [Visited, Visited];
      return { work: sum(times, inner.work, key.work), shape: member(inner.shape) };
    }
    case '+': {
      const [left, right] = node.args.map((operand) => visit(operand, scope, times)) as [Visited, Visited];
      return { work: sum(times, left.work, right.work), shape: concatenated(left.shape, right.shape) };
    }
    case '?:': {
      const [condition, ifTrue, ifFalse] = node.args.map((operand) => visit(operand, scope, times)) as [Visited, Visited, Visited];
      return { work: sum(times, condition.work, ifTrue.work, ifFalse.work), shape: join(ifTrue.shape, ifFalse.shape) };
    }
    case 'in': {
      const [item, collection] = node.args.map((operand) => visit(operand, scope, times)) as [Visited, Visited];
      // A literal list is scanned; data may be a map (one lookup): left to the run-time budget.
      const scan = collection.shape.kind === 'literal' ? scale(times, collection.shape.length) : none();
      return { work: sum(times, item.work, collection.work, scan), shape: SCALAR };
    }
    case 'rcall': {
      const [name, receiver, callArgs] = node.args;
      if (COMPREHENSIONS.has(name) && callArgs[0]?.op === 'id') return comprehension(name, receiver, callArgs, scope, times);
      if (name === 'bind' && receiver.op === 'id' && receiver.args === 'cel' && callArgs.length === 3) return bind(callArgs, scope, times);
      return opaque(times, [receiver, ...callArgs].map((operand) => visit(operand, scope, times)));
    }
    case 'call':
      return opaque(times, node.args[1].map((operand) => visit(operand, scope, times)));
    case '!_':
    case '-_':
      return { work: sum(times, visit(node.args, scope, times).work), shape: SCALAR };
    default: {
      // Comparisons, arithmetic and logic: their operands' work; the value is not iterated.
      const visited = node.args.map((operand) => visit(operand, scope, times));
      return { work: sum(times, ...visited.map((v) => v.work)), shape: SCALAR };
    }
  }
}

/** A function's result: its operands' work, and a value whose size only the run knows. */
function opaque(times: Work, operands: Visited[]): Visited {
  return { work: sum(times, ...operands.map((operand) => operand.work)), shape: DATA };
}

function comprehension(name: string, receiver: ASTNode, args: ASTNode[], scope: Scope, times: Work): Visited {
  const iterated = visit(receiver, scope, times);
  const shape = iterated.shape;
  let iterations: Work;
  let element: Shape;
  switch (shape.kind) {
    case 'scalar':
      iterations = none();
      element = SCALAR;
      break;
    case 'literal':
      iterations = scale(times, shape.length);
      element = shape.element;
      break;
    case 'data':
      iterations = timesN(times);
      element = shape.element ?? { kind: 'part', loop: times, factor: 1 };
      break;
    case 'part':
      // Summed over the loop that yields these elements, the parts are at most the data it iterates.
      iterations = timesN(scale(shape.loop, shape.factor));
      element = shape;
      break;
  }
  const inner = new Map<string, Shape>();
  for (const [variable, bound] of scope) inner.set(variable, entered(bound, shape.kind === 'literal' ? shape.length : undefined));
  inner.set((args[0] as Extract<ASTNode, { op: 'id' }>).args, element);
  const body = args.slice(1).map((part) => visit(part, inner, iterations));
  const work = sum(times, iterated.work, iterations, ...body.map((v) => v.work));
  if (name !== 'map' && name !== 'filter') return { work, shape: SCALAR };
  const produced = name === 'map' ? body[body.length - 1]!.shape : element;
  return { work, shape: shape.kind === 'literal' ? { kind: 'literal', length: shape.length, element: produced } : { kind: 'data', element: produced } };
}

/** `cel.bind(name, value, expression)`: the name stands for the value's shape inside the expression. */
function bind(args: ASTNode[], scope: Scope, times: Work): Visited {
  const [name, value, expression] = args as [ASTNode, ASTNode, ASTNode];
  const bound = visit(value, scope, times);
  const result = name.op === 'id' ? visit(expression, new Map(scope).set(name.args, bound.shape), times) : visit(expression, scope, times);
  return { work: sum(times, bound.work, result.work), shape: result.shape };
}

/**
 * A variable's shape once another loop is entered: a part stays amortized across literal loops (each
 * multiplies how often it is walked) but not across a data loop, which may walk it once per item.
 */
function entered(shape: Shape, literalLength: number | undefined): Shape {
  switch (shape.kind) {
    case 'scalar':
      return shape;
    case 'literal':
      return { ...shape, element: entered(shape.element, literalLength) };
    case 'data':
      return shape.element === undefined ? shape : { kind: 'data', element: entered(shape.element, literalLength) };
    case 'part':
      return literalLength === undefined ? DATA : { ...shape, factor: shape.factor * literalLength };
  }
}

/** A field or element of a value of this shape. */
function member(shape: Shape): Shape {
  switch (shape.kind) {
    case 'literal':
      return shape.element;
    case 'data':
      return shape.element ?? DATA;
    case 'part':
      return shape;
    case 'scalar':
      return DATA;
  }
}

/** A literal list or map: its entries' work, and iterating it walks `length` entries of their joined shape. */
function aggregate(times: Work, entries: Visited[], length = entries.length): Visited {
  return {
    work: sum(times, ...entries.map((entry) => entry.work)),
    shape: { kind: 'literal', length, element: entries.map((entry) => entry.shape).reduce(join, SCALAR) },
  };
}

/** A shape at least as costly to iterate as either. */
function join(a: Shape, b: Shape): Shape {
  if (a.kind === 'scalar') return b;
  if (b.kind === 'scalar') return a;
  if (a.kind === 'literal' && b.kind === 'literal') return { kind: 'literal', length: Math.max(a.length, b.length), element: join(a.element, b.element) };
  return DATA;
}

/** `a + b`: two literal lists make a longer literal; anything else involving a list is data. */
function concatenated(a: Shape, b: Shape): Shape {
  if (a.kind === 'literal' && b.kind === 'literal') return { kind: 'literal', length: a.length + b.length, element: join(a.element, b.element) };
  return a.kind === 'scalar' && b.kind === 'scalar' ? SCALAR : DATA;
}

function none(): Work {
  return { fixed: 0, perItem: 0, superlinear: false };
}

function sum(...works: Work[]): Work {
  return works.reduce((a, b) => ({ fixed: a.fixed + b.fixed, perItem: a.perItem + b.perItem, superlinear: a.superlinear || b.superlinear }), none());
}

function scale(work: Work, factor: number): Work {
  return { fixed: work.fixed * factor, perItem: work.perItem * factor, superlinear: work.superlinear && factor > 0 };
}

/** `work` done once per item of the data: its fixed part becomes per item, its per-item part n². */
function timesN(work: Work): Work {
  return { fixed: 0, perItem: work.fixed, superlinear: work.superlinear || work.perItem > 0 };
}
