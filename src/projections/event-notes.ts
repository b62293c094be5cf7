import type { ChecksRecorded, DomainEvent } from '../events/event.js';
import { describeCost } from './cost-text.js';
import { optionalFailures } from './rules/checks.js';
import type { Panel, RunState } from './state.js';
import { last } from './vec.js';

/**
 * What a record of CI checks said: each check and how it ended, a failed optional one noted as
 * such, and, when a required one did not pass, that the round ended `ci_failed` and why.
 */
const checksNote = (event: ChecksRecorded, after: RunState | undefined): string => {
  const { round, inputSha, checks } = event.data;
  const policy = after?.run?.policy;
  const optional = new Set(policy === undefined ? [] : optionalFailures(policy, checks));
  const listed =
    checks.length === 0
      ? 'none'
      : checks.map((c) => `${c.name} ${c.state}${optional.has(c) ? ' (optional: noted)' : ''}`).join(', ');
  const ended = after?.round === round && after.checks === event.data ? last(after.outcomes) : undefined;
  const end = ended?.result === 'ci_failed' ? `; round ended ci_failed: ${ended.reason}` : '';
  return `checks on ${inputSha.slice(0, 12)}: ${listed}${end}`;
};

/**
 * What an event said, in a phrase, for the audit trail: the stage, the result and its reason, who
 * ruled and why. `after` is the state the event left (what a record of checks did to its round).
 */
export const noteOf = (event: DomainEvent, after?: RunState): string | null => {
  switch (event.type) {
    case 'stage.started':
      return `stage ${event.data.stage} started${event.data.commands.length > 0 ? `, declaring ${event.data.commands.join('; ')}` : ''}`;
    case 'stage.finished':
      return `stage ${event.data.stage} finished by ${event.data.runner} (${describeCost(event.data.cost)}), output ${event.data.outputSha.slice(0, 12)}`;
    case 'stage.failed':
      return `stage ${event.data.stage} failed under ${event.data.runner} (${describeCost(event.data.cost)}): ${event.data.reason}`;
    case 'revision.captured':
      // a round on the bytes the last round reviewed is a recorded choice: the trail says why
      return event.data.sameInput === undefined
        ? null
        : `the same input again: ${event.data.sameInput.reason}`;
    case 'round.ended':
      return `round ended ${event.data.result}: ${event.data.reason}`;
    case 'round.recorded':
      return event.data.result === 'partial' ? 'recorded as partial' : null;
    case 'finding.ruled':
      return `ruling of ${event.data.by}: ${event.data.findingId.slice(0, 12)} ${event.data.status}, because ${event.data.why}`;
    case 'rounds.extended':
      return `extension by ${event.data.by}: ${event.data.rounds} more round(s), because ${event.data.why}`;
    case 'contribution.recorded': {
      const { report } = event.data;
      return `contribution of ${event.data.expert ?? 'an anonymous reviewer'}: ${report.candidates.length} candidate(s), ${report.decisions.length} decision(s)${report.verifications === undefined ? '' : `, ${report.verifications.length} verification(s)`}, report ${event.data.reportSha.slice(0, 12)}`;
    }
    case 'contribution.absent':
      return `${event.data.expert} absent (${event.data.reason}): ${event.data.detail}`;
    case 'reproduction.recorded': {
      const { findingId, outcome, inputSha, outputSha } = event.data;
      const output = outputSha === undefined ? '' : `, output ${outputSha.slice(0, 12)}`;
      return `reproduction of ${findingId.slice(0, 12)} re-run on ${inputSha.slice(0, 12)}: ${outcome === 'still-fails' ? 'still fails' : 'no longer fails'}${output}`;
    }
    case 'checks.recorded':
      return checksNote(event, after);
    default:
      return null;
  }
};

/**
 * What a round closed from its contributions was made of, for the audit trail: the event itself
 * carries only the merged report, so the panel the fold derived says who handed in and who did not.
 */
export const panelNote = (panel: Panel, note: string | null): string => {
  const from =
    panel.reports.length === 0
      ? 'no contribution'
      : `merge of ${panel.reports.length} contribution(s): ${panel.reports.map((r) => `${r.reviewer} (${r.candidates} candidate(s))`).join(', ')}`;
  const absent =
    panel.absent.length === 0
      ? ''
      : `; absent: ${panel.absent.map((a) => `${a.expert} (${a.reason})`).join(', ')}`;
  return `${from}${absent}${note === null ? '' : `; ${note}`}`;
};
