import { describe, expect, it } from 'vitest';
import type { BundleManifest } from './bundle-manifest.js';
import { composeSystemPrompt } from './compose-system-prompt.js';

const manifest: BundleManifest = {
  id: 'agent',
  name: null,
  description: null,
  version: null,
  systemPrompt: 'You are the agent.',
  skillIds: null,
  allowedTools: null,
  requireApproval: null,
  skills: [
    { id: 'cite', name: 'Citing', description: 'Cites sources.', body: 'Always cite.' },
    { id: 'sum', name: 'Summarizing', description: '', body: 'Be brief.' },
  ],
  plugins: [],
};

describe('composeSystemPrompt', () => {
  it('follows the AGENT.md body with every nested skill when none are selected', () => {
    expect(composeSystemPrompt(manifest)).toBe(
      ['You are the agent.', '# Skills', '## Citing', 'Cites sources.', 'Always cite.', '## Summarizing', 'Be brief.'].join('\n\n'),
    );
  });

  it('includes only the selected skills, in the order AGENT.md lists them, ignoring unknown ids', () => {
    expect(composeSystemPrompt({ ...manifest, skillIds: ['sum', 'ghost', 'cite'] })).toBe(
      ['You are the agent.', '# Skills', '## Summarizing', 'Be brief.', '## Citing', 'Cites sources.', 'Always cite.'].join('\n\n'),
    );
  });

  it('is the AGENT.md body alone when the selection is empty', () => {
    expect(composeSystemPrompt({ ...manifest, skillIds: [] })).toBe('You are the agent.');
  });
});
