import { describe, expect, it } from 'vitest';
import { continues, runnableBlocks, splitCommands } from './readme-blocks.js';

describe('README runnable blocks', () => {
  it('reads the marker on the line before a shell fence, with its options, and leaves unmarked blocks out', () => {
    const readme = [
      '## Walk',
      '```sh',
      'echo unmarked',
      '```',
      '```yaml',
      'a: 1',
      '```',
      `<!-- runnable: background session="Other walk" expect='"ok":true' expect="two" -->`,
      '```bash',
      'npm start',
      '```',
    ].join('\n');
    const [block, ...rest] = runnableBlocks(readme);
    expect(rest).toEqual([]);
    expect(block).toMatchObject({ section: 'Walk', session: 'Other walk', line: 9, shownFile: 'a: 1\n' });
    expect(block!.options).toEqual({ background: true, restart: false, expect: ['"ok":true', 'two'] });
    expect(block!.commands.map((command) => command.text)).toEqual(['npm start']);
  });

  it('refuses an unknown option and a marker that no shell fence follows', () => {
    expect(() => runnableBlocks('<!-- runnable: backgrund -->\n```sh\nls\n```')).toThrow(/backgrund/);
    expect(() => runnableBlocks('<!-- runnable: until -->\n```sh\nls\n```')).toThrow(/until/);
    expect(() => runnableBlocks('<!-- runnable -->\n\n```sh\nls\n```')).toThrow(/must be followed/);
  });

  it('splits comment-style blocks into commands, their shown output and their terminals', () => {
    const commands = splitCommands(
      [
        '# terminal 1: the service',
        'A=1 \\',
        '  npm start',
        '# terminal 2',
        `curl -d '{"a":[`,
        `  1]}' http://x      # {"stopped":true}`,
        '# {"jobId":"abc"}',
        'HANDLE=$(curl -s x |',
        '  jq -r .handle)',
      ],
      10,
    );
    expect(commands).toEqual([
      { text: 'A=1 \\\n  npm start', shown: [], terminal: '1', line: 11 },
      { text: `curl -d '{"a":[\n  1]}' http://x      # {"stopped":true}`, shown: ['{"stopped":true}', '{"jobId":"abc"}'], terminal: '2', line: 14 },
      { text: 'HANDLE=$(curl -s x |\n  jq -r .handle)', shown: [], terminal: '2', line: 17 },
    ]);
  });

  it('splits prompt-style blocks at each `$ `, the other lines being the output shown', () => {
    const commands = splitCommands(['$ curl -s \\', "    -d 'x' u", '{"handle":"h1"}', '', '$ HANDLE=h1'], 1);
    expect(commands.map(({ text, shown }) => ({ text, shown }))).toEqual([
      { text: "curl -s \\\n    -d 'x' u", shown: ['{"handle":"h1"}'] },
      { text: 'HANDLE=h1', shown: [] },
    ]);
  });

  it('knows a command goes on while a quote or $( is open or a line ends in a backslash, not for a # in quotes', () => {
    expect([continues("echo 'a"), continues('echo "a'), continues('x=$(a'), continues('a \\'), continues("echo '#' # it's")]).toEqual([true, true, true, true, false]);
  });
});
