import { describe, expect, it } from 'vitest';
import { HOSTILE, rawControls, readAsRunner, runnerCommands } from '../support/actions-runner.js';

/** The test's reader of the runner must itself read as the runner does, or its silence proves nothing. */
describe('reading output as the Actions runner does', () => {
  it('finds `::` commands at a line start after whitespace, and `##[` anywhere in a line', () => {
    expect(
      runnerCommands(
        '::error file=a.js,line=1::m\nsay ##[warning]x\n \t ::add-mask::y\nnot ::a command\n## [nor] this',
      ),
    ).toEqual(['error', 'warning', 'add-mask']);
  });

  it('ends a line at LF, CR or CRLF, as the runner reads a step', () => {
    expect(runnerCommands('a\r::group::g\r\n::endgroup::\rb')).toEqual(['group', 'endgroup']);
  });

  it('reads `##[` in a well-formed command of a name the runner always knows as that command only', () => {
    expect(runnerCommands('::error title=t::a message with ##[add-mask]x')).toEqual(['error']);
    // a name only `stop-commands` registers is no longer known: `##[` may be read after all
    expect(runnerCommands('::pwned::x ##[add-mask]y')).toEqual(['pwned', 'add-mask']);
    // a `::` line with no second `::` is counted anyway: stricter than the runner
    expect(runnerCommands('  ::set-output name=x')).toEqual(['set-output']);
  });

  it('finds the commands in every hostile sample meant to hold one', () => {
    expect(runnerCommands(HOSTILE.workflowCommands)).toEqual(['error', 'add-mask']);
    expect(runnerCommands(HOSTILE.legacyCommand)).toEqual(['error']);
    expect(runnerCommands(HOSTILE.stopCommands)).toEqual(['stop-commands']);
    expect(runnerCommands(HOSTILE.forgedRuling)).toEqual([]);
  });

  it('names each raw control but the layout newline', () => {
    expect(rawControls('a\nb')).toEqual([]);
    expect(rawControls(HOSTILE.terminal)).toEqual(['U+001B', 'U+0007', 'U+001B']);
    expect(rawControls(HOSTILE.bidi)).toEqual(['U+202E']);
    expect(rawControls('\t\r\u0085\u2028\u2066\u007f')).toEqual([
      'U+0009',
      'U+000D',
      'U+0085',
      'U+2028',
      'U+2066',
      'U+007F',
    ]);
  });

  it('acts on no command between ::stop-commands::<token> and the line naming the token, in either form', () => {
    const log = [
      '::error::before',
      '::stop-commands::Tok3nTok3nTok3n00',
      '::add-mask::secret',
      'say ##[warning]x',
      '::tok3ntok3ntok3n00::',
      '::warning::after',
      ' ::stop-commands::second',
      '::error::inside',
      'x ##[SECOND]',
      '::notice::last',
    ].join('\n');
    const read = readAsRunner(log);
    expect(read.acted).toEqual(['error', 'warning', 'notice']);
    expect(read.outside).toEqual(['::error::before', '::warning::after', '::notice::last']);
    expect(read.regions).toEqual([
      { token: 'Tok3nTok3nTok3n00', lines: ['::add-mask::secret', 'say ##[warning]x'], resumed: true },
      { token: 'second', lines: ['::error::inside'], resumed: true },
    ]);
  });

  it('keeps commands stopped to the end of a log that never names the token', () => {
    const read = readAsRunner('::stop-commands::abcdefabcdefabcdef\n::error::x\n::abcdef::');
    expect(read.acted).toEqual([]);
    expect(read.regions).toEqual([
      { token: 'abcdefabcdefabcdef', lines: ['::error::x', '::abcdef::'], resumed: false },
    ]);
    // a stop in the legacy form stops too
    expect(readAsRunner('##[stop-commands]tok\n::error::x').acted).toEqual([]);
  });
});
