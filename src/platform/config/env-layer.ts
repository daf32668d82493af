// Turns `AppConfig__…` environment variables into one raw configuration layer (`__` is `:`).
// Only names starting with `AppConfig__` (any case) are configuration; everything else is ignored
// here (PORT, HOST and PORTCULLIS_ENVIRONMENT are read by host-settings.ts).
import { mergeRaw, rawAt, rawSection, type RawNode } from './raw-node.js';

const CONFIG_PREFIX = /^appconfig__/i;

export function readEnvLayer(env: Readonly<Record<string, string | undefined>>): RawNode {
  const names = Object.keys(env)
    .filter((name) => CONFIG_PREFIX.test(name))
    .sort();
  let root: RawNode = rawSection('environment variables');
  for (const name of names) {
    const value = env[name];
    if (value === undefined) continue;
    const source = `environment variable ${name}`;
    root = mergeRaw(root, rawAt(name.split('__'), { kind: 'value', source, value }, source));
  }
  return root;
}
