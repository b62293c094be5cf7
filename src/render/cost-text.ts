import type { Cost } from '../events/policy.js';

/** `1,200 tokens, $0.04, 35 s`: a cost in words, for the audit trail's notes and the views alike. */
export const describeCost = (cost: Cost): string =>
  [
    cost.tokens === undefined ? '' : `${cost.tokens.toLocaleString('en')} tokens`,
    cost.usd === undefined ? '' : `$${cost.usd.toFixed(2)}`,
    cost.seconds === undefined ? '' : `${cost.seconds} s`,
  ]
    .filter((s) => s !== '')
    .join(', ') || 'nothing';
