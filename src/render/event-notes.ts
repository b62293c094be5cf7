import type { ChecksRecorded, DomainEvent, RevisionCapturedData } from '../events/event.js';
import type { Policy } from '../events/policy.js';
import type { TrailEntry } from '../projections/fold.js';
import { optionalFailures } from '../projections/rules/checks.js';
import type { Panel } from '../projections/state.js';
import { describeCost } from './cost-text.js';
import { outcomeReason } from './outcome-reason.js';

/**
 * What a record of CI checks said: each check and how it ended, a failed optional one noted as
 * such, and, when a required one did not pass, that the round ended `ci_failed` and why.
 */
const checksNote = (event: ChecksRecorded, entry: TrailEntry, policy: Policy | undefined): string => {
  const { inputSha, checks } = event.data;
  const optional = new Set(policy === undefined ? [] : optionalFailures(policy, checks));
  const listed =
    checks.length === 0
      ? 'none'
      : checks.map((c) => `${c.name} ${c.state}${optional.has(c) ? ' (optional: noted)' : ''}`).join(', ');
  const ended = entry.ended;
  const end = ended?.result === 'ci_failed' ? `; round ended ci_failed: ${outcomeReason(ended)}` : '';
  return `checks on ${inputSha.slice(0, 12)}: ${listed}${end}`;
};

/**
 * What a capture said beyond its input: why a round reviews the last round's bytes again (a
 * recorded choice), and where the open findings' lines went.
 */
const captureNote = (capture: RevisionCapturedData): string | null => {
  const notes = [
    ...(capture.sameInput === undefined ? [] : [`the same input again: ${capture.sameInput.reason}`]),
    ...((capture.moves ?? []).length === 0
      ? []
      : [
          `lines followed: ${(capture.moves ?? [])
            .map((m) => `${m.id.slice(0, 12)} ${m.from} → ${m.to}${m.outdated === true ? ' (outdated)' : ''}`)
            .join(', ')}`,
        ]),
  ];
  return notes.length === 0 ? null : notes.join('; ');
};

/** What an event said, in a phrase: the stage, the result and its reason, who ruled and why. */
const noteOf = (event: DomainEvent, entry: TrailEntry, policy: Policy | undefined): string | null => {
  switch (event.type) {
    case 'stage.started':
      return `stage ${event.data.stage} started${event.data.commands.length > 0 ? `, declaring ${event.data.commands.join('; ')}` : ''}`;
    case 'stage.finished':
      return `stage ${event.data.stage} finished by ${event.data.runner} (${describeCost(event.data.cost)}), output ${event.data.outputSha.slice(0, 12)}`;
    case 'stage.failed':
      return `stage ${event.data.stage} failed under ${event.data.runner} (${describeCost(event.data.cost)}): ${event.data.reason}`;
    case 'revision.captured':
      return captureNote(event.data);
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
      return checksNote(event, entry, policy);
    case 'finding.disputed':
      return `dispute of ${event.data.findingId.slice(0, 12)} for round ${event.data.round}: ${event.data.reason}`;
    default:
      return null;
  }
};

/**
 * What a round closed from its contributions was made of: the event itself carries only the
 * merged report, so the panel the fold derived says who handed in and who did not.
 */
const panelNote = (panel: Panel, note: string | null): string => {
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

/**
 * The audit trail's note on one event, from the event and what the fold recorded of it (`entry`):
 * what a lifecycle event said, and for a round closed from contributions, whose they were. The
 * policy is the run's (a record of checks notes its optional failures as such).
 */
export const trailNote = (
  event: DomainEvent,
  entry: TrailEntry,
  policy: Policy | undefined,
): string | null =>
  entry.panel === null ? noteOf(event, entry, policy) : panelNote(entry.panel, noteOf(event, entry, policy));
