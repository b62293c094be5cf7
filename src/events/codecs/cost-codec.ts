import * as t from 'io-ts';

/** An amount spent or allowed, as a log line holds it: numbers only (what they may be is a rule's). */
export const CostCodec = t.partial({ tokens: t.number, usd: t.number, seconds: t.number });
