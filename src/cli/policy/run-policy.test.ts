// `portcullis policy validate|test` in process through runCli (DESIGN §18): exit codes and output lines.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everythingStdio } from '../../tools/mcp/mcp-test-servers.js';
import type { CommandIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

const examples = fileURLToPath(new URL('../../../examples/policies/', import.meta.url));
const EXAMPLE_SET = ['baseline.cedar', 'fetch.cedar', 'memory.cedar', 'people.cedar'].map((file) => join(examples, file));

let cwd: string;
let out: string[];
let err: string[];
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-policy-cli-'));
  out = [];
  err = [];
});
afterEach(async () => rm(cwd, { recursive: true, force: true }));

function io(): CommandIo {
  return { stdout: (line) => void out.push(line), stderr: (line) => void err.push(line), cwd, env: {}, signal: new AbortController().signal };
}

async function write(name: string, text: string): Promise<string> {
  await writeFile(join(cwd, name), text);
  return name;
}

const policy = (argv: string[]) => runCli(['policy', ...argv], io());

describe('portcullis policy validate', () => {
  it('exits 0 for the example set, saying how many policies it holds and its version', async () => {
    expect(await policy(['validate', ...EXAMPLE_SET])).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([expect.stringMatching(/^valid: 9 policies in 4 files \(version [0-9a-f]{12}\)$/)]);
  });

  it('exits 1 naming each invalid file with its line and Cedar\'s message', async () => {
    const good = await write('good.cedar', 'permit(principal, action == Portcullis::Action::"clock.now", resource);\n');
    const parse = await write('parse.cedar', '// one\n// two\npermit(principal, action, resource) when { 1 + };\n');
    const strict = await write('strict.cedar', 'permit(principal, action == Portcullis::Action::"http_fetch.get", resource)\n  when { context.arguments.url == 1 };\n');
    expect(await policy(['validate', good, parse, strict])).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      expect.stringMatching(/^parse\.cedar:3: unexpected token `}`/),
      'strict.cedar:2: the types Long and String are not compatible (both operands to a `==` expression must have compatible types. Types must be exactly equal to be compatible)',
    ]);
  });

  it('prints Cedar\'s warnings on stderr and still exits 0', async () => {
    const file = await write('w.cedar', '@id("never")\npermit(principal, action, resource) when { false };\n');
    expect(await policy(['validate', file])).toBe(0);
    expect(err).toEqual([expect.stringMatching(/^warning: w\.cedar:1: policy is impossible.* \(policy never\)$/)]);
    expect(out).toEqual([expect.stringMatching(/^valid: 1 policy in 1 file/)]);
  });

  it.each([[['validate']], [['validate', '--cases', 'x.yaml', 'a.cedar']], [['nope']], [[]]])('exits 2 for bad usage: %j', async (argv) => {
    expect(await policy(argv)).toBe(2);
    expect(err.join('\n')).toContain('usage: portcullis policy validate FILE...');
  });

  it('answers --help with exit 0 and the options', async () => {
    expect(await policy(['--help'])).toBe(0);
    expect(await policy(['test', '--help'])).toBe(0);
    expect(out.join('\n')).toContain('--cases FILE');
    expect(out.join('\n')).toContain('--config FILE');
  });
});

describe('portcullis policy test', () => {
  it('passes every case of the example set, exit 0 with a one-line summary', async () => {
    expect(await policy(['test', ...EXAMPLE_SET, '--cases', join(examples, 'cases.yaml')])).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([expect.stringMatching(/^16 of 16 cases passed \(policy version [0-9a-f]{12}\)$/)]);
  });

  it('prints each mismatch as `<name>: expected <x>, got <y>` and exits 1', async () => {
    const cases = await write(
      'cases.yaml',
      [
        'cases:',
        '  - { name: clock runs, principal: { subject: a }, tool: clock, operation: now, expect: allow }',
        '  - { name: fetch asks, principal: { subject: a }, tool: http_fetch, operation: get, arguments: { url: "https://api.example.com/" }, expect: ask }',
        '  - { name: memory for ever, principal: { subject: a }, tool: memory, operation: set, arguments: { key: k, value: 1 }, expect: deny }',
      ].join('\n'),
    );
    expect(await policy(['test', ...EXAMPLE_SET, '--cases', cases])).toBe(1);
    expect(out).toEqual(['fetch asks: expected ask, got allow', 'memory for ever: expected deny, got ask', expect.stringMatching(/^1 of 3 cases passed/)]);
  });

  it('uses principal.subject as the Caller id unless the case gives ownerId', async () => {
    const set = await write('me.cedar', 'permit(principal == Portcullis::Caller::"sub:alice", action, resource);\n');
    const cases = await write(
      'cases.yaml',
      [
        'cases:',
        '  - { name: bare subject, principal: { subject: "sub:alice" }, tool: clock, operation: now, expect: allow }',
        '  - { name: owner id given, principal: { subject: alice, ownerId: "sub:alice" }, tool: clock, operation: now, expect: allow }',
        '  - { name: someone else, principal: { subject: alice }, tool: clock, operation: now, expect: deny }',
      ].join('\n'),
    );
    expect(await policy(['test', set, '--cases', cases])).toBe(0);
  });

  it.each([
    ['not YAML', 'cases: [ {', /cannot be used/],
    ['no cases list', 'tests: []', /the file must hold `cases:`/],
    ['a case without expect', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: now }', /case 1 \("x"\): expect must be a non-empty string/],
    ['a misspelt key', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: now, expected: allow, expect: allow }', /case 1 \("x"\): unknown key "expected"/],
    ['a bad verdict', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: now, expect: maybe }', /expect must be allow, ask or deny/],
    ['a non-string claim', 'cases:\n  - { name: x, principal: { subject: a, claims: { level: 3 } }, tool: clock, operation: now, expect: allow }', /principal\.claims must map names to strings/],
    ['an unknown tool', 'cases:\n  - { name: x, principal: { subject: a }, tool: clok, operation: now, expect: allow }', /case "x": no tool "clok" in the catalog/],
    ['an unknown operation', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: later, expect: allow }', /case "x": clock has no operation "later"/],
    ['an hour past 23', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: now, utcHour: 24, expect: allow }', /utcHour must be a whole number from 0 to 23/],
  ])('exits 2 for a cases file with %s', async (_, text, message) => {
    const cases = await write('cases.yaml', text);
    expect(await policy(['test', ...EXAMPLE_SET, '--cases', cases])).toBe(2);
    expect(err.join('\n')).toMatch(message);
    expect(out).toEqual([]);
  });

  it('exits 2 for a cases file it cannot read, and without --cases', async () => {
    expect(await policy(['test', ...EXAMPLE_SET, '--cases', 'missing.yaml'])).toBe(2);
    expect(err.join('\n')).toContain('missing.yaml cannot be read: ENOENT');
    expect(await policy(['test', ...EXAMPLE_SET])).toBe(2);
    expect(err.join('\n')).toContain('--cases FILE is required');
  });

  it('exits 1 without running a case when the set is invalid', async () => {
    const bad = await write('bad.cedar', 'permit(');
    const cases = await write('cases.yaml', 'cases:\n  - { name: x, principal: { subject: a }, tool: clock, operation: now, expect: allow }');
    expect(await policy(['test', bad, '--cases', cases])).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^bad\.cedar:1: /)]);
    expect(out).toEqual([]);
  });
});

describe('portcullis policy with --config', () => {
  it('lists a host\'s MCP servers\' tools: a policy on one validates and its cases run; without --config it does not validate', async () => {
    const server = everythingStdio();
    if (server.transport !== 'stdio') throw new Error('expected a stdio server');
    const settings = await write('appsettings.policy.json', JSON.stringify({ AppConfig: { AI: { McpServers: { everything: { Transport: 'stdio', Command: server.command, Args: server.args } } } } }));
    const set = await write(
      'echo.cedar',
      '@id("echo-hello")\npermit(principal, action == Portcullis::Action::"mcp__everything__echo.call", resource)\n  when { resource.server == "everything" && context.arguments.message like "hello*" };\n',
    );
    const cases = await write(
      'cases.yaml',
      [
        'cases:',
        '  - { name: hello, principal: { subject: a }, tool: mcp__everything__echo, operation: call, arguments: { message: hello there }, surface: mcp, expect: allow }',
        '  - { name: other, principal: { subject: a }, tool: mcp__everything__echo, operation: call, arguments: { message: bye }, surface: mcp, expect: deny }',
      ].join('\n'),
    );
    expect(await policy(['validate', set])).toBe(1);
    expect(err.join('\n')).toContain('unrecognized action `Portcullis::Action::"mcp__everything__echo.call"`');
    err.length = 0;
    expect(await policy(['validate', set, '--config', settings])).toBe(0);
    expect(await policy(['test', set, '--cases', cases, '--config', settings])).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^valid: 1 policy/), expect.stringMatching(/^2 of 2 cases passed/)]);
  }, 60_000);

  it('exits 1 naming the problem when the configuration is refused', async () => {
    const settings = await write('bad.json', JSON.stringify({ AppConfig: { AI: { McpServers: { crm: { Transport: 'stdio' } } } } }));
    expect(await policy(['validate', ...EXAMPLE_SET, '--config', settings])).toBe(1);
    expect(err.join('\n')).toContain('AppConfig:AI:McpServers:crm:Command: is required when Transport is stdio');
  });
});
