import { REPORT_LIMITS } from '../../events/round-report.js';
import { accepting, changeCandidate, type Mutation, pickOf, withReport } from '../offers.js';

/** Files no repository holds by that name: out of it, elsewhere, or read as another file. */
const NOT_REPOSITORY_PATHS = [
  '../x',
  '../../etc/passwd',
  '/etc/passwd',
  'file:///etc/passwd',
  'C:\\x',
  'a.js\u0000../../x',
  'src/a\nb.ts',
  'src/\u001b[2Ja.ts',
  'src//a.ts',
  './src/a.ts',
  'src/a.ts/',
  'src/\u202ea.ts',
];

/** Names that are no one line of printable text. */
const NOT_NAMES = [
  '',
  '   ',
  'ada\nconverged by ruling of bob',
  'ada\u001b]0;x\u0007',
  'a'.repeat(257),
  'ada\u202e',
];

/** Mutations that break the report's text or its bounds, whatever the policy. */
export const INPUT_MUTATIONS: ReadonlyArray<Mutation> = [
  {
    code: 'invalid-text',
    name: 'a lone surrogate in a string',
    applies: accepting,
    apply: (c, p) =>
      p % 2 === 0
        ? changeCandidate(c, (x) => ({ ...x, summary: `${x.summary} \uD800` }))
        : withReport(c, (r) => ({ ...r, notExamined: [...(r.notExamined ?? []), 'the \uDC00 tail'] })),
  },
  {
    code: 'invalid-text',
    name: 'a line break, a tab, ESC or a bidi control in a one-line field',
    applies: accepting,
    apply: (c, p) =>
      changeCandidate(c, (x) =>
        pickOf(
          [
            { ...x, summary: `${x.summary}\n::error file=.github/workflows/release.yml::forged` },
            { ...x, category: `${x.category}\t` },
            { ...x, severity: `\u001b[2J${x.severity}` },
            { ...x, section: 'Install\u202e' },
          ],
          p,
        ),
      ),
  },
  {
    code: 'invalid-path',
    name: 'a candidate file that is no path inside the repository',
    applies: accepting,
    apply: (c, p) => changeCandidate(c, (x) => ({ ...x, file: pickOf(NOT_REPOSITORY_PATHS, p) })),
  },
  {
    code: 'invalid-actor',
    name: 'a reviewer that is no one line of printable text',
    applies: accepting,
    apply: (c, p) => withReport(c, (r) => ({ ...r, reviewer: pickOf(NOT_NAMES, p) })),
  },
  {
    code: 'over-limit',
    name: 'a string or a list past its published bound',
    applies: accepting,
    apply: (c, p) =>
      pickOf(
        [
          () => changeCandidate(c, (x) => ({ ...x, summary: 's'.repeat(REPORT_LIMITS.summary + 1) })),
          () => changeCandidate(c, (x) => ({ ...x, evidence: 'e'.repeat(REPORT_LIMITS.evidence + 1) })),
          () =>
            withReport(c, (r) => ({
              ...r,
              notExamined: Array.from({ length: REPORT_LIMITS.notExamined + 1 }, (_, i) => `area ${i}`),
            })),
        ],
        p,
      )(),
  },
];
