import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * SARIF checked by the reference validator: Microsoft's SARIF Multitool (`@microsoft/sarif-multitool`
 * from the npm registry, its platform binary an optional dependency), verb `validate`: the SARIF
 * 2.1.0 schema and the SARIF rules (SARIF1xxx are errors the standard states, SARIF2xxx warnings and
 * notes on what a good log holds), and the rules for GitHub code scanning (GHxxxx, `--rule-kind Gh`,
 * which `validate` leaves out unless asked). The binary is started directly, never through the package's
 * `bin.js` (it runs its arguments through a shell), and it writes its findings as a SARIF log,
 * which is read here rather than its console.
 *
 * What it reports for clearance's logs, and what this does about each:
 * - errors: none is accepted;
 * - SARIF2005 (the tool has no `informationUri`): fixed, the driver names clearance's home page;
 * - GH2012 (a rule without `fullDescription` and `help`, which code scanning shows): fixed;
 * - SARIF2017 (a location without a `region`): accepted only for a finding located by a document's
 *   section alone (`logicalLocations` of kind `section`, no line): clearance knows no line for it,
 *   and a made-up region would point at the wrong place; any other SARIF2017 is a problem;
 * - notes (message `id`s instead of text, rule ids like `CS2001`, snippets, context regions, rule
 *   help URIs and names, version control provenance) are advice, not checked, except SARIF2003
 *   below;
 * - SARIF2006 (the `$schema` URI is reachable by HTTP) is disabled: a test makes no network call.
 *
 * Multitool 5.7.0 reports nothing at all, and says the analysis succeeded, for a log its object
 * model cannot read (a `level` of `fatal`, a `ruleIndex` that is a string): its silence proves
 * nothing by itself, and it reports nothing either for the logs it would have read after that one
 * in the same process. So the note SARIF2003 (no `versionControlProvenance`, which clearance never
 * writes) must come once for each run of each log: proof that the validator read every run.
 */

const require = createRequire(import.meta.url);
/** The platform binary's path: what the package's main module exports. */
const MULTITOOL = require('@microsoft/sarif-multitool') as string;

/** The one rule turned off (its options key is `<id>.<name>.Options`, the SARIF SDK's settings file). */
const SETTINGS = `<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" />
  </Properties>
</Properties>
`;

type Reported = Readonly<{
  ruleId: string;
  level?: string;
  message: Readonly<{ text?: string; id?: string; arguments?: ReadonlyArray<string> }>;
}>;

/** `runs[0].results[1].locations[0].physicalLocation` of `log`: the value at that path, if any. */
const at = (log: unknown, jsonPath: string): unknown =>
  [...jsonPath.matchAll(/[A-Za-z$]+|\[(\d+)\]/g)].reduce<unknown>((value, [step, index]) => {
    if (value === null || typeof value !== 'object') return undefined;
    const key = index ?? step;
    return (value as Record<string, unknown>)[key];
  }, log);

/** A location found by a document's section alone: no region, a logical location of kind section. */
const sectionOnly = (log: unknown, physicalPath: string): boolean => {
  const location = at(log, physicalPath.replace(/\.physicalLocation$/, '')) as
    | { physicalLocation?: { region?: unknown }; logicalLocations?: Array<{ kind?: string }> }
    | undefined;
  return (
    location?.physicalLocation !== undefined &&
    location.physicalLocation.region === undefined &&
    (location.logicalLocations ?? []).some((l) => l.kind === 'section')
  );
};

const said = (r: Reported): string =>
  `${r.ruleId} (${r.level ?? 'warning'}): ${r.message.text ?? `${r.message.id ?? ''} ${(r.message.arguments ?? []).join(', ')}`}`;

type Validation = Readonly<{ runs: ReadonlyArray<Readonly<{ results?: ReadonlyArray<Reported> }>> }>;

/** Which input a reported result is about: the file its first location names. */
const fileOf = (
  r: Reported & { locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }> },
) => r.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';

/** What the validator says of one log: its problems, or that it never read the log. */
const problemsOf = (log: unknown, reported: ReadonlyArray<Reported>): string[] => {
  const runs = Array.isArray((log as { runs?: unknown }).runs) ? (log as { runs: unknown[] }).runs.length : 0;
  const read = reported.filter((r) => r.ruleId === 'SARIF2003').length;
  const problems = reported
    .filter((r) => r.level === 'error' || r.level === 'warning' || r.level === undefined)
    .filter((r) => !(r.ruleId === 'SARIF2017' && sectionOnly(log, r.message.arguments?.[0] ?? '')))
    .map(said);
  return read === runs && runs > 0
    ? problems
    : [
        `the validator read ${read} of the log's ${runs} run(s): it reports nothing for a log its object model cannot read`,
        ...problems,
      ];
};

/** The validator's complaints about each SARIF log, one line each; empty for a valid log. One process for all. */
export const sarifValidationErrorsOfEach = (logs: ReadonlyArray<unknown>): string[][] => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clearance-sarif-validate-'));
  try {
    const inputs = logs.map((log, n) => {
      const input = path.join(dir, `log-${n}.sarif`);
      writeFileSync(input, JSON.stringify(log, null, 2));
      return input;
    });
    const output = path.join(dir, 'validation.sarif');
    const settings = path.join(dir, 'settings.xml');
    writeFileSync(settings, SETTINGS);
    execFileSync(
      MULTITOOL,
      [
        'validate',
        ...inputs,
        '--output',
        output,
        '--config',
        settings,
        '--level',
        'Error;Warning;Note',
        '--rule-kind',
        'Sarif;Gh',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
    );
    const validation = JSON.parse(readFileSync(output, 'utf8')) as Validation;
    const reported = validation.runs.flatMap((run) => run.results ?? []);
    return logs.map((log, n) => {
      const uri = pathToFileURL(inputs[n] as string).href;
      return problemsOf(
        log,
        reported.filter((r) => fileOf(r) === uri),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The validator's complaints about a SARIF log, one line each; empty when it is valid. */
export const sarifValidationErrors = (log: unknown): string[] => sarifValidationErrorsOfEach([log])[0] ?? [];
