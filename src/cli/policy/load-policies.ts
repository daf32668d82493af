// What both `policy` subcommands do first: build the schema from the catalog, load the files, print
// Cedar's warnings, and either hand back the set or print why it was refused (file:line: message).
import { cedarSchemaFor, loadPolicySet, type LoadedPolicySet, type PolicySetError, type PolicyTool } from '../../policies/index.js';
import type { CommandIo } from '../cli-io.js';
import { policyCatalog } from './policy-catalog.js';

export type LoadedForCli = { readonly ok: true; readonly set: LoadedPolicySet; readonly tools: readonly PolicyTool[] } | { readonly ok: false; readonly exitCode: number };

export async function loadPoliciesForCli(files: readonly string[], configFiles: readonly string[], io: CommandIo): Promise<LoadedForCli> {
  const catalog = await policyCatalog(configFiles, io);
  if (!catalog.ok) {
    for (const problem of catalog.problems) io.stderr(problem);
    return { ok: false, exitCode: 1 };
  }
  const load = await loadPolicySet(files, io.cwd, cedarSchemaFor(catalog.tools));
  if (!load.ok) {
    for (const error of load.errors) io.stderr(where(error));
    return { ok: false, exitCode: 1 };
  }
  for (const warning of load.set.warnings) io.stderr(`warning: ${where(warning)}${warning.policyId === null ? '' : ` (policy ${warning.policyId})`}`);
  return { ok: true, set: load.set, tools: catalog.tools };
}

function where({ file, line, message }: PolicySetError): string {
  return `${file}${line === null ? '' : `:${line}`}: ${message}`;
}
