// Type-level tests, checked by tsc (`npm run typecheck`): the configuration type follows the key
// tables, and a default written unlike its codec reads does not compile. At run time they only pass.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildConfig } from './build-config.js';
import { booleanCodec } from './codecs/boolean-codec.js';
import { listCodec } from './codecs/list-codec.js';
import { requiredPathCodec } from './codecs/path-codecs.js';
import { countCodec } from './codecs/range-codecs.js';
import { enumCodec, nameCodec, optionalTextCodec, verbatimTextCodec } from './codecs/text-codecs.js';
import { timeSpanCodec } from './codecs/time-span-codec.js';
import type { ConfigFromKeys } from './config-from-keys.js';
import type { ConfigTree } from './config-tree.js';
import { conformsToKeys } from './conforms-to-keys.js';
import { defineKeys } from './define-keys.js';
import { keyTable, type KeyRow } from './key-table.js';
import { buildSchemaTree } from './schema-tree.js';
import type { DraftMcpServer } from './rules/config-rule.js';
import type { AppConfig, BundleExecutionConfig, ChatModelProvider, EnvelopeGrantConfig, EnvelopesConfig, RateLimitPolicy } from './types.js';

const sample = defineKeys([
  { key: 'AppConfig:AI:Widgets:Enabled', codec: booleanCodec, default: false, meaning: 'AI is dropped like AppConfig.' },
  { key: 'AppConfig:Widgets:Spin:IdleTimeout', codec: timeSpanCodec, default: '00:00:30', meaning: 'A TimeSpan field gets Ms.' },
  { key: 'AppConfig:Widgets:Names', codec: listCodec(nameCodec), default: [], meaning: 'A list.' },
  { key: 'AppConfig:Widgets:ByOwner:{owner}:Root', codec: requiredPathCodec, required: true, meaning: 'A map of sections.' },
  { key: 'AppConfig:Widgets:ByOwner:{owner}:Labels:{label}', codec: verbatimTextCodec, meaning: 'A map of values.' },
  { key: 'AppConfig:Widgets:Odd:Name', codec: optionalTextCodec, default: null, target: ['renamed', 'name'], meaning: 'An explicit target.' },
]);
type Sample = (typeof sample)[number];

const context = { cwd: '/srv', development: false };
const section = (children: Record<string, ConfigTree>): ConfigTree => ({ kind: 'section', children: new Map(Object.entries(children)) });
const leaf = (value: string): ConfigTree => ({ kind: 'leaf', value, source: 'test' });

describe('ConfigFromKeys', () => {
  it('nests dotted key paths into camelCase sections, records and values', () => {
    expectTypeOf<ConfigFromKeys<Sample, 'settled'>>().toEqualTypeOf<{
      readonly widgets: {
        readonly enabled: boolean;
        readonly spin: { readonly idleTimeoutMs: number };
        readonly names: readonly string[];
        readonly byOwner: Readonly<Record<string, { readonly root: string; readonly labels: Readonly<Record<string, string>> }>>;
      };
      readonly renamed: { readonly name: string | null };
    }>();
  });

  it('is the shape build-config assembles from the same rows', () => {
    const owner = section({ Root: leaf('data'), Labels: section({ Colour: leaf('red') }) });
    const tree = section({ AppConfig: section({ Widgets: section({ ByOwner: section({ alice: owner }) }) }) });
    // Typed as the computed type (tsc checks every field) and compared with what the walk built.
    const expected: ConfigFromKeys<Sample, 'settled'> = {
      widgets: { enabled: false, spin: { idleTimeoutMs: 30_000 }, names: [], byOwner: { alice: { root: '/srv/data', labels: { Colour: 'red' } } } },
      renamed: { name: null },
    };
    expect(buildConfig(tree, buildSchemaTree(sample), context).value).toEqual(expected);
  });

  it('leaves a required key possibly absent until loadConfig found no problem', () => {
    type Owner = ConfigFromKeys<Sample, 'decoded'>['widgets']['byOwner'][string];
    expectTypeOf<Owner['root']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<DraftMcpServer['transport']>().toEqualTypeOf<'stdio' | 'http' | undefined>();
    expectTypeOf<AppConfig['retrieval']['indexes'][string]['root']>().toEqualTypeOf<string>();
  });

  it('gives a key added to a table a typed field, and nothing else', () => {
    const added = defineKeys([
      { key: 'AppConfig:AI:BundleExecution:MaxWidgetCount', codec: countCodec, default: 3, meaning: 'A new key.' },
      { key: 'AppConfig:AI:BundleExecution:WidgetTtl', codec: timeSpanCodec, default: '00:01:00', meaning: 'A new duration.' },
    ]);
    type Extended = ConfigFromKeys<KeyRow | (typeof added)[number], 'settled'>['bundleExecution'];
    const rows = [...keyTable, ...added];
    const built = buildConfig(undefined, buildSchemaTree(rows), context).value;
    if (!conformsToKeys(built, rows, 'settled')) throw new Error('not as declared');
    expect([built.bundleExecution.maxWidgetCount, built.bundleExecution.widgetTtlMs]).toEqual([3, 60_000]);
    expectTypeOf<Extended>().toHaveProperty('maxWidgetCount').toEqualTypeOf<number>();
    expectTypeOf<Extended>().toHaveProperty('widgetTtlMs').toEqualTypeOf<number>();
    expectTypeOf<Omit<Extended, 'maxWidgetCount' | 'widgetTtlMs'>>().toEqualTypeOf<BundleExecutionConfig>();
    expectTypeOf<BundleExecutionConfig>().not.toHaveProperty('maxWidgetCount');
  });

  it('derives the section types the rest of the code uses', () => {
    expectTypeOf<AppConfig['bundleExecution']['handleTtlMs']>().toEqualTypeOf<number>();
    expectTypeOf<EnvelopeGrantConfig>().toEqualTypeOf<{
      readonly allowedTools: readonly string[];
      readonly allowedMcpServers: readonly string[];
      readonly autonomyCeiling: 'Restricted' | 'Supervised' | 'Autonomous';
      readonly autoApproveUpTo: 'None' | 'Trivial' | 'Low' | 'Medium' | 'High';
      readonly budget: { readonly maxUsdPerRun: number | null; readonly maxUsdPerDay: number | null; readonly maxUsdPerMonth: number | null };
    }>();
    expectTypeOf<EnvelopesConfig['bySubject']>().toEqualTypeOf<Readonly<Record<string, EnvelopeGrantConfig>>>();
    expectTypeOf<AppConfig['rateLimits']>().toEqualTypeOf<{ readonly [Policy in RateLimitPolicy]: number }>();
    expectTypeOf<ChatModelProvider>().toEqualTypeOf<'OpenAI' | 'AzureOpenAI' | 'Anthropic' | 'Scripted'>();
  });
});

describe('defineKeys', () => {
  it('refuses a default its codec does not read', () => {
    defineKeys([
      // @ts-expect-error a TimeSpan default is text such as 00:30:00, not a number of milliseconds
      { key: 'AppConfig:Widgets:Ttl', codec: timeSpanCodec, default: 1_800_000, meaning: '' },
    ]);
    defineKeys([
      // @ts-expect-error a boolean default is true or false
      { key: 'AppConfig:Widgets:Enabled', codec: booleanCodec, default: 'yes', meaning: '' },
    ]);
    defineKeys([
      // @ts-expect-error an enum default is one of its names
      { key: 'AppConfig:Widgets:Kind', codec: enumCodec(['Round', 'Square']), default: 'Oval', meaning: '' },
    ]);
    defineKeys([
      // @ts-expect-error a list default is a list
      { key: 'AppConfig:Widgets:Names', codec: listCodec(nameCodec), default: 'a,b', meaning: '' },
    ]);
    defineKeys([
      // @ts-expect-error so is a computed default
      { key: 'AppConfig:Widgets:Count', codec: countCodec, default: ({ development }) => (development ? '1' : 2), meaning: '' },
    ]);
  });
});
