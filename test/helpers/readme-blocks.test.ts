import { describe, expect, it } from 'vitest';
import { continues, hereDocument, runnableBlocks, splitCommands } from './readme-blocks.js';

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
    expect(block).toMatchObject({ section: 'Walk', session: 'Other walk', line: 9 });
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

  it('refuses a `$ ` prompt: a block is pasted whole, its output shown as comments', () => {
    expect(() => splitCommands(['$ curl -s u', '{"handle":"h1"}'], 7)).toThrow(/README\.md:7: a `\$ ` prompt/);
  });

  it("keeps a here-document's lines in its command, `#` lines and quotes included, up to its closing word", () => {
    const commands = splitCommands(
      [
        'mkdir -p .portcullis',
        "cat > .portcullis/support.yaml <<'YAML'",
        'description: it\'s a dataset   # not a comment of the block',
        '# nor this',
        '',
        '  - { type: icontains, value: "retry-after" }',
        'YAML',
        '# {"shown":true}',
        'cat <<-EOF > a && cat <<B >> b',
        '\tone (',
        '\tEOF',
        'two',
        'B',
        'echo done   # done',
      ],
      1,
    );
    expect(commands.map(({ text, shown }) => ({ text, shown }))).toEqual([
      { text: 'mkdir -p .portcullis', shown: [] },
      {
        text: "cat > .portcullis/support.yaml <<'YAML'\ndescription: it's a dataset   # not a comment of the block\n# nor this\n\n  - { type: icontains, value: \"retry-after\" }\nYAML",
        shown: ['{"shown":true}'],
      },
      { text: 'cat <<-EOF > a && cat <<B >> b\n\tone (\n\tEOF\ntwo\nB', shown: [] },
      { text: 'echo done   # done', shown: ['done'] },
    ]);
    expect([continues("cat > f <<'YAML'\na: 1"), continues('cat <<< "here-string"'), continues('echo "<<EOF"')]).toEqual([true, false, false]);
  });

  it('reads the file a here-document writes, after a heading', () => {
    const readme = ['## A', "cat > x.yaml <<'YAML'", 'a: 0', 'YAML', '## B', 'mkdir -p d && cat > d/x.yaml <<YAML', 'b: 1', '# c', 'YAML', ''].join('\n');
    expect(hereDocument(readme, '## B', 'd/x.yaml')).toBe('b: 1\n# c\n');
    expect(() => hereDocument(readme, '## B', 'y.yaml')).toThrow(/no here-document writes y\.yaml/);
  });

  it('knows a command goes on while a quote or $( is open or a line ends in a backslash, not for a # in quotes', () => {
    expect([continues("echo 'a"), continues('echo "a'), continues('x=$(a'), continues('a \\'), continues("echo '#' # it's")]).toEqual([true, true, true, true, false]);
  });
});
