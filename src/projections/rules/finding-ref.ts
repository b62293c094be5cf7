import * as E from '#either';
import type { Path, Rejection } from '../../events/rejection.js';
import { citationOf } from '../citation.js';
import { allInOrder, type Findings, lookUp, withIdPrefix } from '../finding-index.js';
import type { Finding } from '../state.js';
import { fail, shortId } from './rule-answer.js';

/**
 * How people name a finding: its full 64-hex id, or any unique prefix of at least 8 hex characters
 * (screens show 12). An offer is resolved to the full id where it becomes an event, so a stored
 * event always carries the full id, and a short id read back from a log is refused like any
 * unknown one.
 */
export const MIN_ID_PREFIX = 8;

const HEX_PREFIX = new RegExp(`^[0-9a-f]{${MIN_ID_PREFIX},64}$`);

/**
 * The ids a typed reference could mean: itself when it is one, else every id it begins, in the
 * order they opened (a walk down the id index, not a scan).
 */
export const findingsNamed = (findings: Findings, ref: string): ReadonlyArray<string> => {
  if (lookUp(findings, ref) !== undefined) return [ref];
  const prefix = ref.toLowerCase();
  if (!HEX_PREFIX.test(prefix)) return [];
  return withIdPrefix(findings, prefix).map((f) => f.id);
};

/**
 * `decide`'s part: a reference that names exactly one finding becomes its full id; anything else
 * is left as typed, for the rule below to refuse with the reason.
 */
export const resolveFindingRef = (findings: Findings, ref: string): string => {
  const named = findingsNamed(findings, ref);
  return named.length === 1 ? (named[0] as string) : ref;
};

const LISTED = 10;
const DETAILED = 100;

const described = (f: Finding) => ({ id: shortId(f.id), citation: citationOf(f), summary: f.summary });
const listed = (items: ReadonlyArray<ReturnType<typeof described>>): string =>
  items
    .slice(0, LISTED)
    .map((f) => `${f.id} ${f.citation} ${JSON.stringify(f.summary)}`)
    .join('; ') + (items.length > LISTED ? `; and ${items.length - LISTED} more` : '');

/**
 * The rule: an event names a finding of this run by its full id. A prefix shared by several
 * findings is `ambiguous-id` (listing them); anything else is `unknown-finding`, listing the open
 * findings the author could have meant.
 */
export const namedFinding = (
  findings: Findings,
  ref: string,
  where: string,
  path: Path,
): E.Either<Rejection, Finding> => {
  const found = lookUp(findings, ref);
  if (found !== undefined) return E.right(found);
  const named = findingsNamed(findings, ref);
  const shown = JSON.stringify(ref.length > 80 ? `${ref.slice(0, 80)}…` : ref);
  if (named.length > 1) {
    const matches = named.map((id) => described(lookUp(findings, id) as Finding));
    return fail(
      'ambiguous-id',
      `${where} ${shown} begins ${named.length} finding ids: ${listed(matches)}. Give more characters of the one you mean`,
      path,
      { matches: matches.slice(0, DETAILED) },
    );
  }
  if (named.length === 1) {
    return fail(
      'unknown-finding',
      `${where} ${shown} is a prefix of finding ${shortId(named[0] as string)}, but a stored event names a finding by its full id`,
      path,
    );
  }
  // only a refusal lists them: the scan is the price of a helpful message, never of a round
  const open = allInOrder(findings)
    .filter((f) => f.status === 'open')
    .map(described);
  const form = `a finding id is its 64 hex characters or a unique prefix of at least ${MIN_ID_PREFIX}`;
  const tooShort = /^[0-9a-fA-F]+$/.test(ref) && ref.length < MIN_ID_PREFIX;
  return fail(
    'unknown-finding',
    `${where} ${shown} ${tooShort ? `is too short to name a finding (${form})` : `is not a finding of this run (${form})`}; ${
      open.length === 0 ? 'the run has no open finding' : `its open findings: ${listed(open)}`
    }`,
    path,
    { openFindings: open.slice(0, DETAILED), openCount: open.length },
  );
};

/**
 * `namedFinding`, and open: a closed one is `closed-finding`, saying what only an open finding can
 * be (`can`: "disputed", "ruled on").
 */
export const namedOpenFinding = (
  findings: Findings,
  ref: string,
  where: string,
  path: Path,
  can: string,
): E.Either<Rejection, Finding> => {
  const named = namedFinding(findings, ref, where, path);
  if (E.isLeft(named) || named.right.status === 'open') return named;
  return fail(
    'closed-finding',
    `finding ${shortId(named.right.id)} is already ${named.right.status}: only an open finding can be ${can}`,
    path,
  );
};
