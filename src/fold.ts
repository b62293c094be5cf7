/**
 * `clearance/fold`: the pure part — events, the one transition function, the fold and its views,
 * and the two renderers of views as text (`renderExplanation`, `feedbackMarkdown`), which live in
 * `src/render` and encode every value for their sink. It does no I/O and imports nothing from the
 * store, the CLI or any Node built-in, so other tools can embed it and it bundles for a browser as
 * it is (test/browser/fold-bundle.test.ts).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { useEd25519 } from './events/ed25519.js';

// A host without Node's crypto (a browser) checks signed rulings with @noble/curves: pure,
// synchronous, audited. On Node the host's own crypto is used and this is never called.
useEd25519((signature, message, publicKey) => ed25519.verify(signature, message, publicKey));

export * from './events/index.js';
export * from './projections/index.js';
export { renderExplanation } from './render/explain-text.js';
export { feedbackMarkdown, renderFeedback } from './render/feedback.js';
