import { fromBase64 } from './base64.js';
import { canonicalJson } from './canonical-json.js';
import { type Ed25519Verify, ed25519Holds } from './ed25519.js';
import type { FindingRuledData, RoundsExtendedData, RulingSignature } from './event.js';
import type { Policy } from './policy.js';
import { type Rejection, rejection } from './rejection.js';
import { parseSshEd25519 } from './ssh-public-key.js';

/**
 * What a signed ruling signs: the run, the hash of the log line it follows, and the decision
 * itself, as RFC 8785 canonical JSON under a context string of its own, so the signature can be
 * read as nothing else. Binding the line it follows makes a signature good at one place of one
 * run: copied into another run, or replayed later in the same one, it follows another line.
 */
export type RulingContent =
  | Readonly<{
      type: 'finding.ruled';
      runId: string;
      follows: string;
      ruling: Omit<FindingRuledData, 'signature'>;
    }>
  | Readonly<{
      type: 'rounds.extended';
      runId: string;
      follows: string;
      ruling: Omit<RoundsExtendedData, 'signature'>;
    }>;

export const RULING_SIGNATURE_CONTEXT = 'clearance/ruling/v1';

export const rulingMessage = (content: RulingContent): Uint8Array =>
  new TextEncoder().encode(canonicalJson({ context: RULING_SIGNATURE_CONTEXT, ...content }));

const unsigned = (message: string): Rejection => rejection('unsigned-ruling', message, ['signature']);

/**
 * Under a policy that pins signers: the ruling names a signer (`by`), carries a signature by that
 * signer's key over `rulingMessage`, and follows the line it says it follows. The key it was signed
 * with, or why it is refused. `prev` is the hash of the line the event actually follows, known
 * whenever the event comes from a log or an append; without it no position can be checked.
 */
export const checkRulingSignature = (
  policy: Policy,
  runId: string,
  type: RulingContent['type'],
  data: FindingRuledData | RoundsExtendedData,
  prev: string | undefined,
  verify: Ed25519Verify | undefined,
): Rejection | Readonly<{ signedBy: string | null }> => {
  const signers = policy.signers;
  if (signers === undefined) return { signedBy: null };
  const signer = signers.find((s) => s.principal === data.by);
  const what = type === 'finding.ruled' ? 'ruling' : 'extension';
  if (signer === undefined)
    return unsigned(
      `the ${what} is by ${JSON.stringify(data.by)}, who is none of the policy's signers (${signers.map((s) => s.principal).join(', ')}): only they may decide here`,
    );
  const signature: RulingSignature | undefined = data.signature;
  if (signature === undefined)
    return unsigned(`the policy pins signers: the ${what} by ${data.by} must be signed with their key`);
  const key = parseSshEd25519(signer.key);
  if (typeof key === 'string') return unsigned(`the policy's key for ${data.by} is not usable: ${key}`);
  if (signature.keyid !== key.keyid)
    return unsigned(`the ${what} is signed with ${signature.keyid}, not ${data.by}'s key ${key.keyid}`);
  if (prev === undefined || signature.follows !== prev)
    return unsigned(
      `the ${what} was signed to follow line ${signature.follows.slice(0, 12)}, but it follows ${prev === undefined ? 'a line not known here' : prev.slice(0, 12)}: a signature is good at one place of one run (replayed, or someone appended first)`,
    );
  const { signature: _, ...ruling } = data;
  const sig = fromBase64(signature.sig);
  const content = { type, runId, follows: signature.follows, ruling } as RulingContent;
  const holds = sig === null ? false : ed25519Holds(verify, sig, rulingMessage(content), key.publicKey);
  if (holds === 'unverifiable')
    return unsigned(
      `the ${what}'s signature cannot be checked here: this decider was made without an Ed25519 verifier (createDecider({ verifyEd25519 }))`,
    );
  if (!holds)
    return unsigned(
      `the ${what}'s signature does not verify with ${data.by}'s key ${key.keyid}: it was changed after it was signed`,
    );
  return { signedBy: key.keyid };
};
