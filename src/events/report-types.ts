import type * as t from 'io-ts';
import type { ReportCodecV5 } from './codecs/report-v5.js';
import type { ASSESSMENTS, VERDICTS } from './statuses.js';

/**
 * The round report as the log stores it at its latest version, which is what the rules read: the
 * type its codec decodes. The door's zod schema (`round-report.ts`) gives back exactly this (it
 * fails to compile otherwise), and no type here needs zod: the fold's types stand without it.
 */
export type RoundReport = t.TypeOf<typeof ReportCodecV5>;
export type Candidate = RoundReport['candidates'][number];
export type Decision = RoundReport['decisions'][number];
export type Verification = NonNullable<RoundReport['verifications']>[number];
export type Assessment = (typeof ASSESSMENTS)[number];
export type DecisionStatus = Decision['status'];
export type Verdict = (typeof VERDICTS)[number];
