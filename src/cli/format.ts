import { citationOf } from '@clearance/fold/internal/projections/citation.js';
import type { Panel, RunStatus } from '@clearance/fold/internal/projections/state.js';
import type { FindingView } from '@clearance/fold/internal/projections/views/findings.js';
import type { StatusView } from '@clearance/fold/internal/projections/views/status.js';
import { refutedBeforePhrase, rulingPhrase } from '@clearance/fold/internal/render/dispute-text.js';
import { placeNotes } from '@clearance/fold/internal/render/place-note.js';
import {
  deferredCause,
  roundTableLines,
  sameInputSentence,
  trendSentence,
} from '@clearance/fold/internal/render/trend-text.js';
import { plainText as t } from '@clearance/fold/internal/text/untrusted.js';
import type { ReplayedEvent } from '../operations/replay.js';
import type { Colors } from './context.js';

/**
 * Text for people. Nothing here decides anything: it renders views. Every value that came from a
 * log (a reviewer's summary, a file, a name, a reason) goes through `t` (`plainText`), so it stays
 * inside the line clearance began and nothing in it acts on a terminal or a CI runner.
 */

export const shortId = (id: string): string => id.slice(0, 12);

export const statusWord = (c: Colors, status: RunStatus | string): string =>
  status === 'converged' ? c.green(status) : status === 'blocked' ? c.red(c.bold(status)) : c.yellow(status);

export const findingLine = (c: Colors, f: FindingView): string => {
  const mark = f.status === 'open' ? (f.blocking ? c.red('●') : c.yellow('○')) : c.green('✓');
  const tags = [
    f.blocking ? 'blocking' : 'advisory',
    f.status === 'open' ? `open ${f.roundsOpen} round${f.roundsOpen === 1 ? '' : 's'}` : f.status,
    ...(f.reopened > 0 ? [`reopened ${f.reopened}×`] : []),
    ...placeNotes(f).map(t),
  ];
  return `  ${mark} ${c.dim(shortId(f.id))} ${t(f.severity).padEnd(6)} ${t(f.citation)}  ${t(f.summary)} ${c.dim(`[${tags.join(', ')}]`)}`;
};

/** A round's reviewers as one line: each contribution and what it held, then who was absent and why. */
export const panelLine = (p: Panel, lead: string): string => {
  const reports = p.reports
    .map((r) => `${t(r.reviewer)} (${r.candidates} candidate(s), ${r.decisions} decision(s))`)
    .join(', ');
  const absent = p.absent.map((a) => `${t(a.expert)} (${a.reason}: ${t(a.detail)})`).join('; ');
  return `${lead}: ${reports === '' ? 'no contribution' : reports}${absent === '' ? '' : `; absent: ${absent}`}`;
};

const STALL_WHY = {
  'kept-open': 'decided open round after round',
  'reopened-twice': 'reopened a second time',
  disputed: "upheld over the author's disputes",
} as const;

export const statusText = (c: Colors, view: StatusView, seq: number): string => {
  const lines = [
    `run ${c.bold(t(view.runId ?? '?'))}: ${statusWord(c, view.status)} after round ${view.round} of ${view.maxRounds} (policy ${t(view.policy ?? '?')}, seq ${seq})`,
  ];
  const live = view.inProgress;
  if (live !== null && live.phase === 'running') {
    lines.push(
      `round ${live.round} is running: ${live.running === null ? 'between stages' : `stage ${t(live.running)}`}${live.finished.length > 0 ? `; finished: ${live.finished.map(t).join(', ')}` : ''}`,
    );
  }
  if (view.stall !== null) {
    const named = view.stall.findings.map((s) => `${shortId(s.id)} (${STALL_WHY[s.why]})`).join(', ');
    lines.push(
      c.red(
        `${view.blockedReason === 'disputed' ? 'blocked by a dispute' : 'stalled'} at round ${view.stall.round}, before the cap: ${named}; only a person can go on`,
      ),
    );
  }
  if (view.captured) lines.push(`next: round ${view.round + 1} will review input ${t(view.inputSha ?? '?')}`);
  else if (view.status === 'open') lines.push(`next: capture the input for round ${view.round + 1}`);
  const f = view.lastFailure;
  if (f !== null) {
    lines.push(
      c.yellow(
        `  ${view.failedAttempts} failed attempt(s) at round ${f.round}; the last (${f.reason}): ${t(f.detail)}`,
      ),
    );
  }
  for (const p of view.panels) lines.push(panelLine(p, `round ${p.round} reviewed by`));
  const heard = view.contributions;
  if (heard.reports.length > 0 || heard.absent.length > 0)
    lines.push(panelLine(heard, `round ${heard.round} so far`));
  if (view.rounds.length > 0) lines.push('rounds:', ...roundTableLines(view.rounds));
  const trend = trendSentence(view.trend, view.rounds);
  if (trend !== null) lines.push(trend);
  const sameInput = sameInputSentence(view.sameInput);
  if (sameInput !== null) lines.push(sameInput);
  const k = view.counts;
  lines.push(
    `findings: ${k.open} open (${k.openBlocking} blocking), ${k.fixed} fixed, ${k.withdrawn} withdrawn, ${k.suppressed} suppressed; ${k.deferred} deferred to a follow-up`,
  );
  for (const f of view.findings) lines.push(findingLine(c, f));
  return lines.join('\n');
};

/** One event of the audit trail, as `replay` prints it. */
export const trailLine = (
  c: Colors,
  entry: Omit<ReplayedEvent, 'at' | 'by'>,
  meta: Readonly<{ at?: string | undefined; by?: string | undefined }>,
): string => {
  const head = [
    `#${entry.seq}`,
    ...(meta.at === undefined ? [] : [c.dim(t(meta.at))]),
    ...(meta.by === undefined ? [] : [c.dim(`by ${t(meta.by)}`)]),
    `${c.bold(t(entry.type))}${entry.round === null ? '' : ` round ${entry.round}`}`,
  ].join(' ');
  if (entry.rejection !== null)
    return `${head}\n    ${c.red('✗ refused')} ${entry.rejection.code}: ${t(entry.rejection.message)}`;
  const effects: string[] = [];
  if (entry.opened.length > 0) effects.push(`opened ${entry.opened.map(shortId).join(', ')}`);
  for (const ch of entry.changed) effects.push(`${shortId(ch.id)} ${ch.from} → ${ch.to}`);
  for (const m of entry.moved) effects.push(`${shortId(m.id)} moved ${t(m.from)} → ${t(m.to)}`);
  for (const s of entry.suppressed)
    effects.push(
      `suppressed ${t(s.severity)} ${shortId(s.id)} (${s.reason === 'late' ? 'after round 1' : 'over the allowance'})`,
    );
  for (const d of entry.deferred)
    effects.push(
      `deferred ${t(d.severity)} ${shortId(d.id)} ${t(citationOf(d))} to a follow-up (${deferredCause(d)})`,
    );
  for (const r of entry.refuted) {
    const before = refutedBeforePhrase(r);
    const why = t(r.evidence.split('\n')[0]?.slice(0, 160) ?? '');
    effects.push(
      before === null
        ? `refuted ${t(r.severity)} ${shortId(r.id)} ${t(r.file)} by ${r.by.map(t).join(', ')}: ${why}`
        : `refuted before: ${t(r.severity)} ${shortId(r.id)} ${t(r.file)} offered again by ${r.by.map(t).join(', ')}, unchanged since it was ${before}: ${why}`,
    );
  }
  for (const d of entry.disputesRuled)
    effects.push(
      `dispute of ${shortId(d.id)} ${rulingPhrase(d.ruling, t)}: ${t(d.ruling.evidence.split('\n')[0]?.slice(0, 160) ?? '')}`,
    );
  if (entry.failure !== null)
    effects.push(c.yellow(`attempt failed (${entry.failure.reason}): ${t(entry.failure.detail)}`));
  if (entry.note !== null && entry.failure === null) effects.push(t(entry.note));
  if (entry.convergedBy !== null) effects.push(c.green(`converged by ruling of ${t(entry.convergedBy)}`));
  return `${head} → ${statusWord(c, entry.status)}${effects.length === 0 ? '' : `\n    ${effects.join('\n    ')}`}`;
};
