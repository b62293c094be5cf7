import { readFileSync } from 'node:fs';
import type { ExpectedReport } from '../../../src/handoff/index.js';
import type { RoundReport } from '../../../src/index.js';
import { candidate, decision, sha } from '../../support/builders.js';

/** What the tests wait for: round 2 of run-c, bound to the input captured for it. */
export const EXPECTED: ExpectedReport = { runId: 'run-c', round: 2, inputSha: sha('c2') };

const leak = candidate({
  file: 'src/pool/connection.ts',
  line: 88,
  category: 'resource-leak',
  summary: 'A connection is never returned to the pool when the query times out',
  evidence:
    'Run the integration suite with QUERY_TIMEOUT_MS=1: after 50 timed-out queries the pool reports 50 ' +
    'connections in use and the 51st request blocks forever.',
});

/** A complete round-2 report for `binding`: one new candidate and a decision on a round-1 finding. */
export const roundReport = (
  binding: ExpectedReport = EXPECTED,
  over: Partial<RoundReport> = {},
): RoundReport => ({
  ...binding,
  completed: true,
  candidates: [leak],
  decisions: [
    decision(
      candidate({ file: 'src/pool/connection.ts', line: 40, summary: 'Retry loop never backs off' }),
      'fixed',
      'connection.ts:41 now sleeps 2^attempt * 10 ms between retries, capped at 1 s',
    ),
  ],
  ...over,
});

/** A real multi-finder round (issueflow, local-fitness PR #236, round 2) as a round report: ~70 KB. */
export const realisticReport = (): RoundReport =>
  JSON.parse(
    readFileSync(new URL('../fixtures/issueflow-pr236-round2.report.json', import.meta.url), 'utf8'),
  );
