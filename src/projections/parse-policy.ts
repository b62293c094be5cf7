import * as E from '#either';
import type { Policy } from '../events/policy.js';
import { PolicySchema } from '../events/policy-schema.js';
import { type Rejection, rejection } from '../events/rejection.js';
import { describeIssues } from '../events/schema-issues.js';
import { policyIsUsable } from './rules/lifecycle.js';

/**
 * A policy from untrusted input (a policy file, JSON from an embedder): its shape checked by the
 * schema, its values by the policy's rules (`policyIsUsable`, the same rules `run.opened` is held
 * to). Whatever is wrong, the refusal is `invalid-policy`, naming the field and what it must be.
 */
export const parsePolicy = (input: unknown): E.Either<Rejection, Policy> => {
  const parsed = PolicySchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const issue = describeIssues(parsed.error.issues, 'policy');
    return E.left(rejection('invalid-policy', `invalid policy: ${issue.text}`, ['policy', ...issue.path]));
  }
  const usable = policyIsUsable(parsed.data);
  return E.isLeft(usable) ? usable : E.right(parsed.data);
};
