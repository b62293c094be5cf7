/**
 * `@clearance/fold`: the pure part (packages/fold publishes it) — the decider value
 * (`createDecider`: `{ initialState, decide, evolve }`), the events and their codecs, the fold and
 * its views, and the renderers of views as text (`renderExplanation`, `feedbackMarkdown`), which
 * encode every value for their sink. It does no I/O, imports no Node built-in and needs no zod
 * (the door schemas are `@clearance/fold/schemas`), so other tools embed it and it bundles for a
 * browser as it is (test/browser/fold-program.browser.ts, docs/embedding.md).
 */
export * from './events/index.js';
export * from './projections/index.js';
export { renderExplanation } from './render/explain-text.js';
export { feedbackMarkdown, renderFeedback } from './render/feedback.js';
