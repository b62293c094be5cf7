/** Why the gate does not approve (`clearance gate`, `gateOf`): listed here once, exit 1 each. */
export const GATE_REFUSALS = [
  'no-review',
  'not-converged',
  'unverifiable',
  'artifact-changed',
  'head-moved',
  'checks-not-passed',
] as const;

export type GateRefusal = (typeof GATE_REFUSALS)[number];
