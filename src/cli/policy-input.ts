import { ClearanceError } from '../errors.js';
import { isPresetName, type Policy, PRESET_NAMES, PRESETS } from '../events/policy.js';
import { PolicySchema } from '../events/policy-schema.js';
import { formatPath } from '../events/rejection.js';
import type { Io } from './context.js';
import { parseJsonInput, readTextInput } from './inputs.js';

/** The policy a run opens with: a preset by name, or a policy file validated at the boundary. */
export const policyFrom = async (
  io: Io,
  preset: string | undefined,
  file: string | undefined,
  maxBytes?: number,
): Promise<Policy> => {
  if (file !== undefined) {
    if (preset !== undefined) throw new ClearanceError('usage', 'give --policy or --policy-file, not both');
    const refuse = (m: string, details?: Readonly<Record<string, unknown>>) =>
      new ClearanceError('usage', `policy file ${m}`, details);
    const value = parseJsonInput(
      await readTextInput(file, io, 'policy file', {
        refuse,
        ...(maxBytes === undefined ? {} : { maxBytes }),
      }),
      file,
      refuse,
    );
    const parsed = PolicySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue === undefined
          ? ''
          : formatPath(issue.path.filter((k): k is string | number => typeof k !== 'symbol'));
      throw new ClearanceError(
        'usage',
        `policy file ${file} is not a policy: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'invalid'}`,
      );
    }
    return parsed.data;
  }
  const name = preset ?? 'default';
  if (!isPresetName(name)) {
    throw new ClearanceError(
      'usage',
      `unknown policy ${JSON.stringify(name)}: use one of ${PRESET_NAMES.join(', ')}, or --policy-file`,
    );
  }
  return PRESETS[name];
};
