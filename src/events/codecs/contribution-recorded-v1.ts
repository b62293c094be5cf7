import * as t from 'io-ts';
import { ReportCodecV2 } from './report-v2.js';

/**
 * `contribution.recorded`: one reviewer's report; `expert` (the log's spelling of the reviewer,
 * kept so every log reads back) is absent for an anonymous contribution.
 * Each version has changed only the report inside, so each is this shape over its own report codec.
 */
export const contributionRecordedCarrying = <R extends t.Mixed>(report: R) =>
  t.intersection([
    t.type({ round: t.number, inputSha: t.string, reportSha: t.string, report }),
    t.partial({ expert: t.string }),
  ]);

/**
 * One reviewer's report for the round in progress (`clearance contribute`, `clearance collect`):
 * bound to run, round and captured input exactly like a round report. The round is closed by a
 * `round.recorded` whose report is the merge of these (src/projections/rules/merge.ts). Never
 * edit: add a version.
 */
export const ContributionRecordedV1 = contributionRecordedCarrying(ReportCodecV2);
