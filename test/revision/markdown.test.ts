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
