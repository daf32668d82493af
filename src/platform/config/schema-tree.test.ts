import { describe, expect, it } from 'vitest';
import { booleanCodec } from './codecs/boolean-codec.js';
import type { KeyEntry } from './key-entry.js';
import { buildSchemaTree } from './schema-tree.js';

const entry = (key: string): KeyEntry => ({ key, codec: booleanCodec, default: false, meaning: 'test' });

describe('buildSchemaTree', () => {
  it('folds keys into sections matched by lower-case name, keeping the canonical spelling', () => {
    const root = buildSchemaTree([entry('App:Feature:Enabled'), entry('App:Feature:Other')]);
    const feature = root.children.get('app');
    expect(feature?.name).toBe('App');
    expect(feature?.node.kind).toBe('section');
  });

  it('turns a {name} segment into a map', () => {
    const root = buildSchemaTree([entry('App:Servers:{name}:On')]);
    const app = root.children.get('app')?.node;
    const servers = app?.kind === 'section' ? app.children.get('servers')?.node : undefined;
    expect(servers?.kind).toBe('map');
  });

  it('refuses a table where a key is both a value and a section', () => {
    expect(() => buildSchemaTree([entry('App:Enabled'), entry('App:Enabled:More')])).toThrow(/collides/);
  });

  it('refuses a table mixing a map and fixed keys at one level', () => {
    expect(() => buildSchemaTree([entry('App:Items:{name}:On'), entry('App:Items:Fixed')])).toThrow(/mixes map and fixed/);
  });
});
