import { describe, expect, it } from 'vitest';
import { configReference } from './index.js';
import { keyTable } from './key-table.js';
import { rateLimitPolicies } from './types.js';

function row(key: string): (typeof configReference)[number] | undefined {
  return configReference.find((doc) => doc.key === key);
}

describe('configReference', () => {
  it('documents every key of the key table, each with a type and a meaning', () => {
    for (const entry of keyTable) {
      const doc = row(entry.key);
      expect(doc, entry.key).toBeDefined();
      expect(doc?.type, entry.key).not.toBe('');
      expect(doc?.meaning, entry.key).not.toBe('');
    }
  });

  it('lists map keys as patterns', () => {
    expect(row('AppConfig:AI:McpServers:{name}:Transport')).toMatchObject({ type: 'stdio | http', default: 'required' });
    expect(row('AppConfig:AI:BundleExecution:Envelopes:BySubject:{subject}:AutonomyCeiling')).toMatchObject({ default: 'Restricted' });
    expect(row('AppConfig:AI:Retrieval:Indexes:{name}:Root')).toBeDefined();
  });

  it('shows defaults as a settings file would write them', () => {
    expect(row('AppConfig:AI:BundleExecution:Enabled')).toMatchObject({ type: 'boolean', default: 'false' });
    expect(row('AppConfig:AI:BundleExecution:MaxArchiveBytes')).toMatchObject({ type: 'integer ≥ 1', default: '10485760' });
    expect(row('AppConfig:AI:BundleExecution:HandleTtl')).toMatchObject({ type: 'TimeSpan', default: '00:30:00' });
    expect(row('AppConfig:AI:Conversations:Ttl')).toMatchObject({ default: '1.00:00:00' });
    expect(row('AppConfig:AI:Evaluation:DatasetRoots')).toMatchObject({ type: 'path[]', default: 'empty' });
    expect(row('AppConfig:AI:ChatModel:Provider')).toMatchObject({ default: 'Scripted in Development, none otherwise' });
    expect(row('AppConfig:AI:BundleExecution:Auth:TenantId')).toMatchObject({ default: '' });
  });

  it('documents the keys added beyond SPEC.md and DESIGN.md', () => {
    expect(row('AppConfig:AI:DirectToolInvocation:DefaultTimeoutSeconds')).toMatchObject({ default: '30' });
    expect(row('AppConfig:AI:DirectToolInvocation:MaxConcurrentPerCaller')).toMatchObject({ default: '4' });
    expect(row('AppConfig:AI:DirectToolInvocation:MaxOutputBytes')).toMatchObject({ default: '65536' });
    expect(row('AppConfig:AI:Tools:HttpFetch:MaxResponseBytes')).toMatchObject({ default: '1048576' });
    expect(row('AppConfig:AI:Tools:HttpFetch:TimeoutSeconds')).toMatchObject({ default: '10' });
    expect(row('AppConfig:AI:Workflows:RunRecordTtl')).toMatchObject({ default: '00:30:00' });
    expect(row('AppConfig:AI:BundleExecution:Auth:JwksRefreshCooldown')).toMatchObject({ default: '00:00:30' });
    expect(row('AppConfig:Http:RequestTimeout')).toMatchObject({ default: '00:01:00' });
    expect(row('AppConfig:Logging:Level')).toMatchObject({ default: 'info' });
    expect(row('AppConfig:Schedules:MinIntervalSeconds')).toMatchObject({ default: '60' });
    expect(row('AppConfig:Schedules:FireRetention')).toMatchObject({ default: '7.00:00:00' });
  });

  it('lists every rate-limit policy with its default', () => {
    expect(row('AppConfig:AI:RateLimits:bundles-register:PermitsPerMinute')).toMatchObject({ default: '10', type: 'integer 1–1000000' });
    expect(row('AppConfig:AI:RateLimits:tools-read:PermitsPerMinute')).toMatchObject({ default: '120' });
    expect(configReference.filter((doc) => doc.key.startsWith('AppConfig:AI:RateLimits:'))).toHaveLength(rateLimitPolicies.length);
    expect(row('AppConfig:AI:RateLimits:schedules-write:PermitsPerMinute')).toMatchObject({ default: '30' });
    expect(row('AppConfig:AI:RateLimits:schedules-read:PermitsPerMinute')).toMatchObject({ default: '120' });
  });

  it('documents the environment name variable', () => {
    expect(row('PORTCULLIS_ENVIRONMENT')).toMatchObject({ default: 'Production' });
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(configReference)).toBe(true);
    expect(Object.isFrozen(configReference[0])).toBe(true);
  });
});
