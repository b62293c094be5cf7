import { describe, expect, it } from 'vitest';
import {
  explain,
  type FindingView,
  findingsOf,
  findingView,
  PRESETS,
  type RunState,
} from '../../src/fold.js';
import { type Annotation, findingAnnotations, workflowCommands } from '../../src/render/github.js';
import { showControls } from '../../src/text/untrusted.js';
import { ALL_HOSTILE, HOSTILE_STRINGS, rawControls, runnerCommands } from '../support/actions-runner.js';
import { accepted, blockedRun, checksRun, convergedRun } from './hostile-runs.js';

/**
 * `--format github` writes workflow commands on purpose: one annotation a line. Whatever a value
 * holds, the runner reads exactly those annotations and nothing else, and no raw control reaches
 * the log or the annotation.
 */

/** Each `::level` line as the runner decodes it (its unescaping, in its order): properties, message. */
const decoded = (line: string) => {
  const match = /^::(\w+) (.*?)::(.*)$/.exec(line);
  const runnerUnescape = (s: string) =>
    s
      .replaceAll('%0D', '\r')
      .replaceAll('%0A', '\n')
      .replaceAll('%3A', ':')
      .replaceAll('%2C', ',')
      .replaceAll('%25', '%');
  const props = Object.fromEntries(
    (match?.[2] ?? '').split(',').map((p) => {
      const [k, v] = p.split(/=(.*)/s);
      return [k, runnerUnescape(v ?? '')];
    }),
  );
  return { level: match?.[1], props, message: runnerUnescape(match?.[3] ?? '') };
};

const annotationsOf = (state: RunState): Annotation[] => [
  { level: 'error', title: `clearance: run-1 is ${state.status}`, message: explain(state).headline },
  ...findingAnnotations(
    state.run?.policy ?? PRESETS.default,
    findingsOf(state).map((f) => findingView(f, state)),
  ),
];

const everyField = (h: string): FindingView => ({
  id: 'f'.repeat(64),
  file: h,
  line: 3,
  section: h,
  citation: h,
  category: h,
  summary: h,
  severity: h,
  status: 'open',
  blocking: true,
  openedRound: 1,
  roundsOpen: 2,
  reopened: 0,
});

describe('workflow commands from hostile values', () => {
  for (const h of [...HOSTILE_STRINGS, ALL_HOSTILE]) {
    it(`from runs folded from hostile events: ${JSON.stringify(h).slice(0, 40)}`, () => {
      for (const events of [blockedRun(h), blockedRun(h).slice(0, -1), convergedRun(h), checksRun(h)]) {
        const annotations = annotationsOf(accepted(events));
        const log = workflowCommands(annotations, 'clearance findings run-1 --status open');
        expect(runnerCommands(log)).toEqual(annotations.map((a) => a.level));
        expect(rawControls(log)).toEqual([]);
        // decoded, the verdict is one line however its `by` reads; a finding's, two, the second clearance's
        const [verdict, ...findings] = log.split('\n').map((line) => decoded(line).message.split('\n'));
        expect(verdict).toHaveLength(1);
        for (const lines of findings) expect(lines[1]).toMatch(/^finding [0-9a-f]{12}, open \d+ rounds?$/);
      }
    });

    it(`from every field of a finding: ${JSON.stringify(h).slice(0, 40)}`, () => {
      const [annotation] = findingAnnotations(PRESETS.default, [everyField(h)]);
      const log = workflowCommands(annotation === undefined ? [] : [annotation], 'see all');
      expect(runnerCommands(log)).toEqual(['error']);
      expect(rawControls(log)).toEqual([]);
      // the runner decodes the values as written, controls shown; only clearance's break is a line
      const { props, message } = decoded(log);
      expect(props).toEqual({
        file: showControls(h),
        line: '3',
        title: `blocking ${showControls(h)} ${showControls(h)}`,
      });
      expect(message).toBe(`${showControls(h)} (§ ${showControls(h)})\nfinding ffffffffffff, open 2 rounds`);
    });
  }

  it("a plain file name is the annotation's file, exactly", () => {
    const [annotation] = findingAnnotations(PRESETS.default, [
      { ...everyField('x'), file: 'src/a, b:c%.ts' },
    ]);
    const log = workflowCommands(annotation === undefined ? [] : [annotation], 'see all');
    expect(decoded(log).props.file).toBe('src/a, b:c%.ts');
  });
});
