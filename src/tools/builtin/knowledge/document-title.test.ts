import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title.js';

describe('documentTitle', () => {
  it('takes the first ATX heading of a markdown file, without closing hashes', () => {
    expect(documentTitle('a/b.md', 'intro\n## Setting up ##\n# Later')).toBe('Setting up');
  });

  it('skips front matter and fenced code when looking for the heading', () => {
    expect(documentTitle('x.md', '---\n# yaml comment\n---\n```sh\n# a shell comment\n```\n# Real title\n')).toBe('Real title');
  });

  it('falls back to the file name for text files and headingless markdown', () => {
    expect(documentTitle('notes/todo.txt', '# looks like a heading')).toBe('todo.txt');
    expect(documentTitle('plain.md', 'no heading\n#hashtag is not one')).toBe('plain.md');
  });
});
