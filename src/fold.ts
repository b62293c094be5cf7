/**
 * `clearance/fold`: the pure part — events, the one transition function, the fold and its views,
 * and the two renderers of views as text (`renderExplanation`, `feedbackMarkdown`), which live in
 * `src/render` and encode every value for their sink. It does no I/O and imports nothing from the
 * store, the CLI or any Node built-in, so other tools can embed it and it bundles for a browser as
 * it is (test/browser/fold-bundle.test.ts).
 */
export * from './events/index.js';
export * from './projections/index.js';
export { renderExplanation } from './render/explain-text.js';
export { feedbackMarkdown, renderFeedback } from './render/feedback.js';
