import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/events/policy.js';
import type { FindingView } from '../../src/projections/views/findings.js';
import {
  type Annotation,
  escapeData,
  escapeProperty,
  findingAnnotations,
  workflowCommand,
  workflowCommands,
} from '../../src/render/github.js';
import { commandsStopped } from '../../src/render/stop-commands.js';
import { markdownText } from '../../src/text/untrusted.js';

const view = (over: Partial<FindingView>): FindingView => ({
  id: 'f'.repeat(64),
  file: 'src/a.ts',
  line: 1,
  section: null,
  citation: 'src/a.ts:1',
  category: 'correctness',
  summary: 'a finding',
  severity: 'major',
  status: 'open',
  blocking: true,
  openedRound: 1,
  roundsOpen: 1,
  reopened: 0,
  ...over,
});

describe('GitHub workflow commands', () => {
  it('escape data as GitHub decodes it: %, CR and LF', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    // already-escaped text is escaped again, so it prints as written
    expect(escapeData('%0A')).toBe('%250A');
  });

  it('escape property values also at : and ,', () => {
    expect(escapeProperty('a:b,c%d\ne')).toBe('a%3Ab%2Cc%25d%0Ae');
  });

  it('print file, line and title as properties, the message as data', () => {
    const a: Annotation = {
      level: 'error',
      file: 'src/a,b.ts',
      line: 7,
      title: 'blocking major: correctness',
      message: 'leaks: 100%',
      detail: 'really',
    };
    expect(workflowCommand(a)).toBe(
      '::error file=src/a%2Cb.ts,line=7,title=blocking major%3A correctness::leaks: 100%25%0Areally',
    );
    // the detail's line is clearance's; a newline in the message or a property is shown, never a break
    expect(workflowCommand({ ...a, message: 'leaks\r\nreally', title: 'a\nb', detail: undefined })).toBe(
      '::error file=src/a%2Cb.ts,line=7,title=a\\nb::leaks\\r\\nreally',
    );
    expect(workflowCommand({ level: 'notice', title: 't', message: '::set-output name=x::y' })).toBe(
      '::notice title=t::::set-output name=x::y',
    );
  });

  it('keep the ten most important of each level and count the rest', () => {
    const errors = Array.from({ length: 13 }, (_, i) =>
      view({ id: `${i}`.padStart(64, '0'), line: i + 1, citation: `src/a.ts:${i + 1}`, roundsOpen: i % 3 }),
    );
    const nits = Array.from({ length: 2 }, (_, i) =>
      view({ id: `n${i}`.padStart(64, '0'), severity: 'nit', blocking: false, line: 50 + i }),
    );
    const closed = view({ id: 'c'.repeat(64), status: 'fixed' });
    const annotations = findingAnnotations(PRESETS.default, [...nits, closed, ...errors]);
    expect(annotations.map((a) => a.level)).toEqual([...Array(13).fill('error'), 'notice', 'notice']);
    // the longest open first among equals: roundsOpen 2, then 1, then 0
    expect(annotations.slice(0, 4).map((a) => a.line)).toEqual([3, 6, 9, 12]);
    const lines = workflowCommands(annotations, 'clearance findings r --status open').split('\n');
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(lines.filter((l) => l.startsWith('::notice '))).toHaveLength(2);
    expect(lines.at(-1)).toBe(
      'clearance: 3 more error annotation(s) not shown (GitHub shows 10 of each level): clearance findings r --status open',
    );
    // the three left out are the least important: open the fewest rounds, then last in the file
    const shownLines = lines.filter((l) => l.startsWith('::error ')).map((l) => /line=(\d+)/.exec(l)?.[1]);
    expect(shownLines).toEqual(['3', '6', '9', '12', '2', '5', '8', '11', '1', '4']);
  });

  it('an advisory severity that blocks elsewhere is a warning, others a notice', () => {
    const [styleIssue, suggestion] = findingAnnotations(PRESETS.standard, [
      view({ severity: 'issue', category: 'style', blocking: false }),
      view({ severity: 'suggestion', blocking: false }),
    ]);
    expect([styleIssue?.level, suggestion?.level]).toEqual(['warning', 'notice']);
  });
});

describe('the step summary', () => {
  it('escapes text so it can open no link, table cell or HTML', () => {
    expect(markdownText('a | b [x](http://e) <img src=x>\nnext')).toBe(
      'a \\| b \\[x\\]\\(http\\:\\/\\/e\\) \\<img src\\=x\\> next',
    );
  });

  it("stops commands around a text with the caller's token, and refuses a token that could be guessed or met", () => {
    const token = '0123456789abcdef0123456789abcdef';
    expect(commandsStopped(token, 'a\n::add-mask::x')).toBe(
      `::stop-commands::${token}\na\n::add-mask::x\n::${token}::`,
    );
    expect(() => commandsStopped('short', 'a')).toThrow(/16 or more/);
    expect(() => commandsStopped('0123456789abcde:', 'a')).toThrow(/16 or more/);
    expect(() => commandsStopped(token, `a ::${token}:: b`)).toThrow(/holds the stop token/);
  });
});
