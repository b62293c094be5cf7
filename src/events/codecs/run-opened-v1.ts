import * as t from 'io-ts';
import { PolicyCodecV1 } from './policy-v1.js';

/** `run.opened` v1, as docs/design.md "Events (v1)" defines it. Never edit: add a version. */
export const RunOpenedV1 = t.type({
  runId: t.string,
  policy: PolicyCodecV1,
  subject: t.partial({ repo: t.string, artifact: t.string }),
  consent: t.intersection([t.type({ by: t.string }), t.partial({ commands: t.array(t.string) })]),
});
