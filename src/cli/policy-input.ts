import type { Policy } from '@clearance/fold/internal/events/policy.js';
import { parsePolicy } from '@clearance/fold/internal/projections/parse-policy.js';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError } from '../errors.js';
import type { Io } from './context.js';
import { parseJsonInput, readTextInput } from './inputs.js';

/**
 * `--policy NAME` or `--policy-file FILE`: the preset's name as given (the operation knows the
 * presets), or the file's policy, whose shape and values are checked before anything else is done
 * (the same rules `run.opened` is held to, see parsePolicy).
 */
export const policyFrom = async (
  io: Io,
  preset: string | undefined,
  file: string | undefined,
  maxBytes?: number,
): Promise<string | Policy | undefined> => {
  if (file === undefined) return preset;
  if (preset !== undefined) throw new ClearanceError('usage', 'give --policy or --policy-file, not both');
  // whatever is wrong with the policy in the file, it is one refusal: invalid-policy (exit 1)
  const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
    new ClearanceError('invalid-policy', `policy file ${m}`, details);
  const value = parseJsonInput(
    await readTextInput(file, io, 'policy file', {
      refuse,
      ...(maxBytes === undefined ? {} : { maxBytes }),
    }),
    file,
    refuse,
  );
  const parsed = parsePolicy(value);
  if (E.isLeft(parsed)) {
    const { message, path, details } = parsed.left;
    throw new ClearanceError('invalid-policy', `policy file ${file}: ${message}`, { path, ...details });
  }
  return parsed.right;
};
