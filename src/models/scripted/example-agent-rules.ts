// The built-in script's rules for the demo questions of the example bundles (examples/bundles/README.md),
// so `npm start` shows each example agent doing its one job offline. They are ordinary script rules
// (DESIGN §8's format, compiled by the same code as a ChatModel:ScriptPath file) and match whole,
// specific questions only, so any other message still reaches `call …` or the echo.
import { compileScriptRules } from './compile-script-rules.js';

const TRIAGE_S1 = [
  'Severity: S1 (production is down for many users; page the on-call engineer).',
  '',
  'First reply: "Thank you for the report. We are treating this as urgent and an engineer is looking at it now. We will update you within the hour."',
  '',
  'Missing: the error message customers see, when it started, and whether payments were taken.',
].join('\n');

export const EXAMPLE_AGENT_RULES = compileScriptRules(
  [
    {
      when: String.raw`^\s*what time is it in tokyo\s*\??\s*$`,
      reply: 'Reading the clock in Asia/Tokyo.',
      toolCalls: [{ tool: 'clock', operation: 'now', parameters: { timeZone: 'Asia/Tokyo' } }],
    },
    {
      when: String.raw`^\s*what time is 09:00 on 29 march 2026 in berlin for new york\s*\??\s*$`,
      reply: 'Converting 09:00 Europe/Berlin to America/New_York with the clock.',
      toolCalls: [{ tool: 'clock', operation: 'convert', parameters: { time: '2026-03-29T09:00:00', from: 'Europe/Berlin', to: 'America/New_York' } }],
    },
    {
      when: String.raw`^\s*which header says when to retry after a 429\s*\??\s*$`,
      reply: 'Searching the handbook for "429 Retry-After".',
      toolCalls: [{ tool: 'knowledge', operation: 'search', parameters: { index: 'handbook', query: '429 Retry-After' } }],
    },
    { when: String.raw`^\s*checkout is down for all our customers\b`, reply: TRIAGE_S1 },
  ],
  'built-in (example agents)',
);
