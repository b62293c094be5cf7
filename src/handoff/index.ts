/** The completion protocol (a report handed off from its producer to the waiting driver): publish, and the bounded wait. */

export { type ExpectedReport, type Judgement, judgeReport, type SeenBinding } from './judge.js';
export { publishReport } from './publish.js';
export { type CollectedReport, waitForReport } from './wait.js';
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_POLL_MS,
  DEFAULT_TIMEOUT_MS,
  resolveBudget,
  type WaitBudget,
  type WaitOptions,
} from './wait-budget.js';
