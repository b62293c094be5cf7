import type { TrailEntry } from '../projections/fold.js';
import type { Panel, RunStatus } from '../projections/state.js';
import type { FindingView } from '../projections/views/findings.js';
import type { StatusView } from '../projections/views/status.js';
import type { Colors } from './context.js';

/** Text for people. Nothing here decides anything: it renders views. */

export const shortId = (id: string): string => id.slice(0, 12);

export const statusWord = (c: Colors, status: RunStatus | string): string =>
  status === 'converged' ? c.green(status) : status === 'blocked' ? c.red(c.bold(status)) : c.yellow(status);

export const findingLine = (c: Colors, f: FindingView): string => {
  const mark = f.status === 'open' ? (f.blocking ? c.red('●') : c.yellow('○')) : c.green('✓');
  const tags = [
    f.blocking ? 'blocking' : 'advisory',
    f.status === 'open' ? `open ${f.roundsOpen} round${f.roundsOpen === 1 ? '' : 's'}` : f.status,
    ...(f.reopened > 0 ? [`reopened ${f.reopened}×`] : []),
  ];
  return `  ${mark} ${c.dim(shortId(f.id))} ${f.severity.padEnd(6)} ${f.citation}  ${f.summary} ${c.dim(`[${tags.join(', ')}]`)}`;
};

/** A round's reviewers as one line: each contribution and what it held, then who was absent and why. */
export const panelLine = (p: Panel, lead: string): string => {
  const reports = p.reports
    .map((r) => `${r.reviewer} (${r.candidates} candidate(s), ${r.decisions} decision(s))`)
    .join(', ');
  const absent = p.absent.map((a) => `${a.expert} (${a.reason}: ${a.detail})`).join('; ');
  return `${lead}: ${reports === '' ? 'no contribution' : reports}${absent === '' ? '' : `; absent: ${absent}`}`;
};

export const statusText = (c: Colors, view: StatusView, seq: number): string => {
  const lines = [
    `run ${c.bold(view.runId ?? '?')}: ${statusWord(c, view.status)} after round ${view.round} of ${view.maxRounds} (policy ${view.policy}, seq ${seq})`,
  ];
  const live = view.inProgress;
  if (live !== null && live.phase === 'running') {
    lines.push(
      `round ${live.round} is running: ${live.running === null ? 'between stages' : `stage ${live.running}`}${live.finished.length > 0 ? `; finished: ${live.finished.join(', ')}` : ''}`,
    );
  }
  if (view.stall !== null) {
    const named = view.stall.findings
      .map(
        (s) =>
          `${shortId(s.id)} (${s.why === 'kept-open' ? 'decided open round after round' : 'reopened a second time'})`,
      )
      .join(', ');
    lines.push(
      c.red(`stalled at round ${view.stall.round}, before the cap: ${named}; only a person can go on`),
    );
  }
  if (view.captured) lines.push(`next: round ${view.round + 1} will review input ${view.inputSha}`);
  else if (view.status === 'open') lines.push(`next: capture the input for round ${view.round + 1}`);
  const f = view.lastFailure;
  if (f !== null) {
    lines.push(
      c.yellow(
        `  ${view.failedAttempts} failed attempt(s) at round ${f.round}; the last (${f.reason}): ${f.detail}`,
      ),
    );
  }
  for (const p of view.panels) lines.push(panelLine(p, `round ${p.round} reviewed by`));
  const heard = view.contributions;
  if (heard.reports.length > 0 || heard.absent.length > 0)
    lines.push(panelLine(heard, `round ${heard.round} so far`));
  const k = view.counts;
  lines.push(
    `findings: ${k.open} open (${k.openBlocking} blocking), ${k.fixed} fixed, ${k.withdrawn} withdrawn, ${k.suppressed} suppressed`,
  );
  for (const f of view.findings) lines.push(findingLine(c, f));
  return lines.join('\n');
};

/** One event of the audit trail, as `replay` prints it. */
export const trailLine = (c: Colors, t: TrailEntry, meta: Readonly<{ at?: string; by?: string }>): string => {
  const head = [
    `#${t.seq}`,
    ...(meta.at === undefined ? [] : [c.dim(meta.at)]),
    ...(meta.by === undefined ? [] : [c.dim(`by ${meta.by}`)]),
    `${c.bold(t.type)}${t.round === null ? '' : ` round ${t.round}`}`,
  ].join(' ');
  if (t.rejection !== null)
    return `${head}\n    ${c.red('✗ refused')} ${t.rejection.code}: ${t.rejection.message}`;
  const effects: string[] = [];
  if (t.opened.length > 0) effects.push(`opened ${t.opened.map(shortId).join(', ')}`);
  for (const ch of t.changed) effects.push(`${shortId(ch.id)} ${ch.from} → ${ch.to}`);
  for (const m of t.moved) effects.push(`${shortId(m.id)} moved ${m.from} → ${m.to}`);
  for (const s of t.suppressed)
    effects.push(
      `suppressed ${s.severity} ${shortId(s.id)} (${s.reason === 'late' ? 'after round 1' : 'over the allowance'})`,
    );
  for (const r of t.refuted)
    effects.push(
      `refuted ${r.severity} ${shortId(r.id)} ${r.file} by ${r.by.join(', ')}: ${r.evidence.split('\n')[0]?.slice(0, 160) ?? ''}`,
    );
  if (t.failure !== null) effects.push(c.yellow(`attempt failed (${t.failure.reason}): ${t.failure.detail}`));
  if (t.note !== null && t.failure === null) effects.push(t.note);
  if (t.convergedBy !== null) effects.push(c.green(`converged by ruling of ${t.convergedBy}`));
  return `${head} → ${statusWord(c, t.status)}${effects.length === 0 ? '' : `\n    ${effects.join('\n    ')}`}`;
};
