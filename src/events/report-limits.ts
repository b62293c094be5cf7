import { ACTOR_NAME_MAX } from './actor-name.js';

/**
 * What one report may hold, at most. Real multi-finder reports reach about 80 KB in all, with
 * summaries of a few hundred characters and evidence of a few thousand; these bounds leave room
 * for that many times over, while keeping one field from holding a whole log. Lengths count
 * UTF-16 code units (JavaScript string length), as JSON Schema's `maxLength` does for zod.
 * Published in `clearance schema report` as `maxLength` / `maxItems`; listed in docs/reports.md.
 */
export const REPORT_LIMITS = {
  runId: 128,
  inputSha: 256,
  file: 4096,
  section: 1024,
  category: 128,
  summary: 2000,
  severity: 64,
  evidence: 16_000,
  principle: 1000,
  reproduction: 4000,
  findingId: 64,
  reviewer: ACTOR_NAME_MAX,
  notExaminedItem: 2000,
  notExamined: 200,
  candidates: 1000,
  decisions: 10_000,
} as const;
