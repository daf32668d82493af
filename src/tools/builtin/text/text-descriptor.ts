// The text tool's catalog descriptor: flags per DESIGN §4 and one parameters schema per operation. It
// holds no behaviour.
import type { ToolDescriptor } from '../../tool.js';
import { MAX_MATCHES, MAX_PATTERN_LENGTH, MAX_TEXT_LENGTH } from './text-limits.js';

const text = { type: 'string', maxLength: MAX_TEXT_LENGTH } as const;

export const textDescriptor: ToolDescriptor = {
  name: 'text',
  description: 'Token counting, regular-expression extraction and line diffs over plain text.',
  operations: [
    {
      name: 'count_tokens',
      description:
        'Counts tokens in the o200k_base encoding (GPT-4o, GPT-4.1, o-series, GPT-5) and characters (code points); ' +
        'returns { tokens, characters, encoding }.',
      parameters: {
        type: 'object',
        properties: { text: { ...text, description: 'Text to count (at most 1 MiB).' } },
        required: ['text'],
        additionalProperties: false,
      },
    },
    {
      name: 'extract',
      description:
        `Finds every match of a JavaScript regular expression (at most ${MAX_MATCHES}); returns { matches: [{ match, ` +
        'index, groups }], truncated }. groups maps capture numbers ("1", "2", …) and names to the captured text ' +
        '(null when a group did not take part). Patterns that run too long fail with "pattern timed out".',
      parameters: {
        type: 'object',
        properties: {
          text: { ...text, description: 'Text to search (at most 1 MiB).' },
          pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_LENGTH, description: 'JavaScript regular expression source, without slashes.' },
          flags: { type: 'string', maxLength: 6, pattern: '^[gimsuy]*$', description: 'Any of g i m s u y; g is always added.' },
        },
        required: ['text', 'pattern'],
        additionalProperties: false,
      },
    },
    {
      name: 'diff',
      description:
        'Unified line diff from before to after (3 lines of context; empty when identical); returns { diff, ' +
        'additions, deletions } where the counts are added and deleted lines.',
      parameters: {
        type: 'object',
        properties: {
          before: { ...text, description: 'Original text (at most 1 MiB).' },
          after: { ...text, description: 'Changed text (at most 1 MiB).' },
        },
        required: ['before', 'after'],
        additionalProperties: false,
      },
    },
  ],
  riskTier: 'Trivial',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
};
