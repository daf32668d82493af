import { describe, expect, it } from 'vitest';
import { buildConfig } from './build-config.js';
import { booleanCodec } from './codecs/boolean-codec.js';
import { requiredPathCodec } from './codecs/path-codecs.js';
import { verbatimTextCodec } from './codecs/text-codecs.js';
import { timeSpanCodec } from './codecs/time-span-codec.js';
import type { ConfigTree } from './config-tree.js';
import { conformsToKeys } from './conforms-to-keys.js';
import { defineKeys } from './define-keys.js';
import { buildSchemaTree } from './schema-tree.js';

const rows = defineKeys([
  { key: 'AppConfig:AI:Widgets:Enabled', codec: booleanCodec, default: false, meaning: '' },
  { key: 'AppConfig:Widgets:IdleTimeout', codec: timeSpanCodec, default: '00:00:30', meaning: '' },
  { key: 'AppConfig:Widgets:ByOwner:{owner}:Root', codec: requiredPathCodec, required: true, meaning: '' },
  { key: 'AppConfig:Widgets:ByOwner:{owner}:Labels:{label}', codec: verbatimTextCodec, meaning: '' },
]);
const schema = buildSchemaTree(rows);

const leaf = (value: string): ConfigTree => ({ kind: 'leaf', value, source: 'test' });
const section = (children: Record<string, ConfigTree>): ConfigTree => ({ kind: 'section', children: new Map(Object.entries(children)) });

function build(owner: Record<string, ConfigTree>): Record<string, unknown> {
  const tree = section({ AppConfig: section({ Widgets: section({ ByOwner: section({ alice: section(owner) }) }) }) });
  return buildConfig(tree, schema, { cwd: '/srv', development: false }).value;
}

describe('conformsToKeys', () => {
  it('accepts what build-config assembled from the same rows', () => {
    const value = build({ Root: leaf('data'), Labels: section({ Colour: leaf('red') }) });
    expect(conformsToKeys(value, rows, 'decoded')).toBe(true);
    expect(conformsToKeys(value, rows, 'settled')).toBe(true);
  });

  it('lets a required key be missing only before the problems were counted', () => {
    const value = build({ Labels: section({}) });
    expect(conformsToKeys(value, rows, 'decoded')).toBe(true);
    expect(conformsToKeys(value, rows, 'settled')).toBe(false);
  });

  it('refuses a value missing a key, or one placed elsewhere than the type says', () => {
    expect(conformsToKeys({ widgets: { enabled: false, byOwner: {} } }, rows, 'decoded')).toBe(false);
    expect(conformsToKeys({ widgets: { enabled: false, idleTimeout: 30_000, byOwner: {} } }, rows, 'decoded')).toBe(false);
    expect(conformsToKeys({ widgets: { enabled: false, idleTimeoutMs: 30_000, byOwner: {} } }, rows, 'decoded')).toBe(true);
  });
});
