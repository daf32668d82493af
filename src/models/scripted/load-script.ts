// Reads a Scripted chat-model rules file (YAML, parsed safely: no custom tags, bounded aliases)
// and compiles it. Called once at start-up; any problem is an error naming the file.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compileScriptRules } from './compile-script-rules.js';
import type { ScriptRule } from './script-rule.js';

export function loadScript(path: string): ScriptRule[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Chat-model script ${path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let document: unknown;
  try {
    document = parse(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    throw new Error(`Chat-model script ${path} is not valid YAML: ${(error as Error).message}`);
  }
  return compileScriptRules(document, path);
}
