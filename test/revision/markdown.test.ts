import { describe, expect, it } from 'vitest';
import { headingsOf } from '../../src/revision/index.js';

const texts = (md: string): string[] => headingsOf(md).map((h) => h.text);

describe('headingsOf', () => {
  it('reads ATX headings of every level and strips a closing sequence, not a trailing hash in a word', () => {
    expect(
      texts('# One\n###### Six ######\n## C# #\n## Hash#\n####### seven\n#5 bolt\n    # indented code\n'),
    ).toEqual(['One', 'Six', 'C#', 'Hash#']);
  });

  it('reads setext headings, but a --- after a blank line or a list item is a thematic break', () => {
    expect(texts('Title\n=====\n\n---\n- item\n---\nPara\none\n---\n')).toEqual(['Title', 'Para one']);
  });

  it('skips fenced code until the same fence closes, and front matter', () => {
    const md = '---\nkey: value\n---\n~~~~\n# no\n~~~\n# still no\n~~~~\n```js\n# no\n````\n# Yes\n';
    expect(texts(md)).toEqual(['Yes']);
  });

  it('treats an unclosed fence as running to the end, and a backtick info string as no fence', () => {
    expect(texts('``` a ` b\n# Yes\n```\n# No\n')).toEqual(['Yes']);
  });

  it('gives the first and last line of each heading', () => {
    expect(headingsOf('\n# A\n\nB\nb\n---\n').map((h) => [h.level, h.start, h.end])).toEqual([
      [1, 1, 1],
      [2, 3, 5],
    ]);
  });
});

describe('headingsOf, as CommonMark reads headings', () => {
  it('counts no heading inside an HTML comment, but one inside a block quote or a list item', () => {
    const md =
      '<!--\n## Hidden\n-->\n\n> ## Quoted note\n\n- # In a list item\n\n<div>\n\n## After a div\n\n</div>\n';
    expect(texts(md)).toEqual(['Quoted note', 'In a list item', 'After a div']);
  });

  it('gives the rendered text and the text as typed', () => {
    const md = '## The *Install* step\n\n## C\\+\\+ &amp; `code`\n\nSetext with **bold**\n---\n';
    expect(headingsOf(md).map((h) => [h.text, h.source])).toEqual([
      ['The Install step', 'The *Install* step'],
      ['C++ & code', 'C\\+\\+ &amp; `code`'],
      ['Setext with bold', 'Setext with **bold**'],
    ]);
  });

  it('reads no heading from indented code, a fence inside a quote, or a line that needs a space after #', () => {
    expect(texts('    ## code\n\n> ```\n> ## fenced\n> ```\n\n##no space\n\n#\tTab\n')).toEqual(['Tab']);
  });

  it('numbers lines across CRLF and lone CR line endings, and skips a byte order mark', () => {
    expect(headingsOf('\uFEFF# A\r\n\r\nB\rb\r---\r\n').map((h) => [h.text, h.start, h.end])).toEqual([
      ['A', 0, 0],
      ['B b', 2, 4],
    ]);
  });
});
