// docs/policies.md: every Cedar example in it validates against the built-in tools and the refund tool
// it assumes, so the guide cannot drift from what the layer accepts.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cedarSchemaFor } from './policy-schema.js';
import { loadPolicySet } from './policy-set.js';
import { policyFolder, testTools, type PolicyFolder } from './policy-test-catalog.js';

let folder: PolicyFolder;
beforeAll(async () => {
  folder = await policyFolder();
});
afterAll(async () => folder.remove());

describe('docs/policies.md', () => {
  it('holds Cedar examples that all validate in strict mode, with the ids they claim', async () => {
    const guide = await readFile(new URL('../../docs/policies.md', import.meta.url), 'utf8');
    const blocks = [...guide.matchAll(/```cedar\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const files = await Promise.all(blocks.map((block, i) => folder.write(`doc${i}.cedar`, block)));
    const load = await loadPolicySet(files, folder.dir, cedarSchemaFor(testTools));
    expect(load.ok ? [] : load.errors).toEqual([]);
    if (!load.ok) return;
    expect(load.set.policies.map((policy) => policy.id)).toEqual([
      'refund-small',
      'refund-needs-approval',
      'refund-cap',
      'fetch-allow-list',
      'fetch-per-run-limit',
      'payroll-finance-only',
      'delegate-office-hours',
    ]);
    expect(load.set.warnings).toEqual([]);
  });
});
