import { REVIEW_PREDICATE_TYPE, STATEMENT_TYPE } from '@clearance/fold/internal/render/attestation.js';
import * as z from 'zod';

/**
 * The statement `clearance attest` signs, as JSON Schema (`clearance schema attestation`): an
 * in-toto Statement v1 whose predicate is clearance's `review/v1`. docs/attestation.md says what
 * each field means. A type-level test holds `ReviewStatement` to it.
 */
const Sha = z.string().describe('a hex digest or git object id');
const Signed = z
  .string()
  .nullable()
  .describe("the SSH fingerprint of the key that signed it, under a policy's signers");

export const ReviewPredicateSchema = z.strictObject({
  runId: z.string(),
  verdict: z.enum(['unopened', 'open', 'converged', 'blocked']).describe('the status the fold derives'),
  round: z.number().int().describe('the last round that ended'),
  maxRounds: z.number().int().describe('the cap in force (extensions included)'),
  policy: z.strictObject({
    name: z.string(),
    digest: z.strictObject({
      sha256: Sha.describe('SHA-256 of the pinned policy as RFC 8785 canonical JSON'),
    }),
  }),
  log: z
    .strictObject({
      head: Sha.describe("SHA-256 of the log's last line, the one the verdict was folded to"),
      events: z.number().int(),
      lastSeq: z.number().int(),
    })
    .describe('the log the verdict was folded from'),
  byPatch: z
    .strictObject({
      commit: Sha.describe('the commit approved: the subject'),
      base: Sha.describe('the commit the base named; each patch is taken against its merge base with it'),
      patchId: Sha.describe('the patch id both commits share (git patch-id --verbatim)'),
    })
    .optional()
    .describe(
      'gate --base approved another commit than the reviewed one (reviewed.commit) because it makes the same patch',
    ),
  reviewed: z
    .strictObject({
      inputSha: z.string(),
      commit: Sha.optional(),
      tree: Sha.optional(),
      artifactSha: Sha.optional(),
      workingTree: z
        .literal(true)
        .optional()
        .describe('the working tree was reviewed, uncommitted changes included'),
    })
    .nullable()
    .describe('what the last recorded round reviewed'),
  findings: z.strictObject({
    blocking: z.number().int().describe('open blocking findings'),
    open: z.array(
      z.strictObject({
        id: Sha,
        severity: z.string(),
        file: z.string(),
        line: z.number().int().nullable(),
        section: z.string().nullable(),
        blocking: z.boolean(),
      }),
    ),
  }),
  panels: z.array(
    z.strictObject({
      round: z.number().int(),
      reviewers: z.array(z.string()),
      /** `expert`: the log's spelling of the reviewer, signed into attestations as it is */
      absent: z.array(z.strictObject({ expert: z.string(), reason: z.string() })),
    }),
  ),
  absentReviewers: z.array(z.string()),
  rulings: z.array(
    z.strictObject({
      round: z.number().int(),
      findingId: Sha,
      status: z.string(),
      by: z.string(),
      why: z.string(),
      signedBy: Signed,
    }),
  ),
  extensions: z.array(
    z.strictObject({
      round: z.number().int(),
      rounds: z.number().int(),
      by: z.string(),
      why: z.string(),
      signedBy: Signed,
    }),
  ),
  convergedBy: z.strictObject({ by: z.string(), why: z.string() }).nullable(),
  clearance: z.strictObject({ version: z.string() }),
});

export const ReviewStatementSchema = z
  .strictObject({
    _type: z.literal(STATEMENT_TYPE),
    subject: z.array(
      z.strictObject({
        name: z.string().describe('git-commit, git-tree, or the document as findings cite it'),
        digest: z.record(z.string(), z.string()).describe('gitCommit, gitTree or sha256'),
      }),
    ),
    predicateType: z.literal(REVIEW_PREDICATE_TYPE),
    predicate: ReviewPredicateSchema,
  })
  .describe(`clearance's review attestation: an in-toto Statement v1 of ${REVIEW_PREDICATE_TYPE}`);

export const attestationJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(ReviewStatementSchema, { io: 'output' }) as Record<string, unknown>;
