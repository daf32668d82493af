// `portcullis policy test FILE... --cases CASES.yaml [--config FILE]...`: decides each case with the
// policy layer alone (before the envelope and the ceiling) and prints each mismatch as
// `<name>: expected <x>, got <y>`, then a one-line summary. Exit 0 when every case passes, 1 when one
// does not or the set is invalid, 2 for bad usage or a cases file that cannot be used (unreadable, not
// YAML, a malformed case, a tool or operation the catalog does not have). The Caller entity's id is
// the case's principal.ownerId, by default its principal.subject.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PolicyDecider, type PolicyRequest, type PolicyTool } from '../../policies/index.js';
import type { CommandIo } from '../cli-io.js';
import { loadPoliciesForCli } from './load-policies.js';
import { parsePolicyArgs, usageError } from './policy-args.js';
import { parsePolicyCases, type PolicyCase } from './policy-cases.js';

export async function runPolicyTest(args: string[], io: CommandIo): Promise<number> {
  const parsed = parsePolicyArgs('test', args, io, { cases: true });
  if (!parsed.ok) return parsed.exitCode;
  const casesFile = parsed.cases ?? '';
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, casesFile), 'utf8');
  } catch (error) {
    return usageError('test', `${casesFile} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, io).exitCode;
  }
  const cases = parsePolicyCases(text);
  if (!cases.ok) return badCases(casesFile, cases.problems, io);
  const loaded = await loadPoliciesForCli(parsed.files, parsed.configFiles, io);
  if (!loaded.ok) return loaded.exitCode;
  const requests = cases.cases.map((one) => requestFor(one, loaded.tools));
  const unknown = requests.flatMap((request) => (typeof request === 'string' ? [request] : []));
  if (unknown.length > 0) return badCases(casesFile, unknown, io);
  const decider = new PolicyDecider(loaded.set);
  let failed = 0;
  cases.cases.forEach((one, i) => {
    const got = decider.decide(requests[i] as PolicyRequest).decision;
    if (got === one.expect) return;
    failed += 1;
    io.stdout(`${one.name}: expected ${one.expect}, got ${got}`);
  });
  const total = cases.cases.length;
  io.stdout(`${total - failed} of ${total} ${total === 1 ? 'case' : 'cases'} passed (policy version ${loaded.set.version})`);
  return failed > 0 ? 1 : 0;
}

/** The case as a request, or a problem naming the tool or operation the catalog does not have. */
function requestFor(one: PolicyCase, tools: readonly PolicyTool[]): PolicyRequest | string {
  const tool = tools.find((t) => t.descriptor.name === one.tool) ?? tools.find((t) => t.descriptor.name.toLowerCase() === one.tool.toLowerCase());
  if (tool === undefined) return `case "${one.name}": no tool "${one.tool}" in the catalog (${tools.map((t) => t.descriptor.name).join(', ')})`;
  if (!tool.descriptor.operations.some((operation) => operation.name === one.operation)) {
    return `case "${one.name}": ${tool.descriptor.name} has no operation "${one.operation}" (${tool.descriptor.operations.map((o) => o.name).join(', ')})`;
  }
  const { principal, operation, surface, bundleId, run, utcHour } = one;
  return { principal, tool, operation, surface, bundleId, run, utcHour, arguments: one.arguments };
}

function badCases(file: string, problems: readonly string[], io: CommandIo): number {
  io.stderr(`portcullis policy test: ${file} cannot be used:`);
  for (const problem of problems) io.stderr(`  ${problem}`);
  return 2;
}
