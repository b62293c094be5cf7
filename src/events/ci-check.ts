import { controlIn } from './control-characters.js';
import type { CheckResult } from './event.js';
import { quoted } from './quoted.js';
import { type Rejection, rejection } from './rejection.js';

/**
 * The grammar of a CI check as it comes in (`clearance checks`, the MCP tool, a library caller):
 * its name and its link are whatever CI, or whoever typed them, says, and they are printed in the
 * gate's refusal, `next`, the trail and the author's feedback. A name is one line of text, 1 to
 * 256 characters, not only whitespace; a link is one http(s) URL of at most 2048 characters, with
 * no whitespace, control or bidi character and no user name or password in it (a
 * `https://ci.example@evil.example/` link shows one host and opens another). Checked at the door,
 * like every name (`actor-name.ts`): the rules judge a logged check by its meaning alone.
 */
export const CHECK_NAME_MAX = 256;
export const CHECK_URL_MAX = 2048;
/** More checks than any CI reports on one commit, far fewer than would make one log line huge. */
export const CHECKS_MAX = 1000;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What is wrong with `name` as a check's name, completing "the name …", or `undefined`. */
export const checkNameProblem = (name: string): string | undefined => {
  if (name.trim() === '') return name === '' ? 'is empty' : 'is only whitespace';
  if (name.length > CHECK_NAME_MAX)
    return `is ${name.length} characters long, over the ${CHECK_NAME_MAX} a check's name may have`;
  const control = controlIn(name);
  if (control !== undefined) return `holds ${control}`;
  if (LONE_SURROGATE.test(name)) return 'holds a lone surrogate (half of a UTF-16 pair)';
  return undefined;
};

/** What is wrong with `url` as a check's link, completing "the link …", or `undefined`. */
export const checkUrlProblem = (url: string): string | undefined => {
  if (url.length > CHECK_URL_MAX)
    return `is ${url.length} characters long, over the ${CHECK_URL_MAX} a link may have`;
  const control = controlIn(url);
  if (control !== undefined) return `holds ${control}`;
  if (/\s/u.test(url)) return 'holds whitespace';
  if (LONE_SURROGATE.test(url)) return 'holds a lone surrogate (half of a UTF-16 pair)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `is a ${parsed.protocol} URL, not an http(s) one`;
  if (parsed.username !== '' || parsed.password !== '') return 'carries a user name or password';
  return undefined;
};

/**
 * `invalid-text` for the first check whose name or link breaks its grammar (or `over-limit` for
 * more than `CHECKS_MAX` checks), naming which and the fix; `undefined` when all hold. `field`
 * says where the checks came from (`--check`, `--from checks.json`, `checks`).
 */
export const checksRejection = (checks: ReadonlyArray<CheckResult>, field: string): Rejection | undefined => {
  if (checks.length > CHECKS_MAX)
    return rejection(
      'over-limit',
      `${field}: ${checks.length} checks, over the ${CHECKS_MAX} one record may hold`,
      ['checks'],
    );
  for (const [i, check] of checks.entries()) {
    const name = checkNameProblem(check.name);
    if (name !== undefined)
      return rejection(
        'invalid-text',
        `${field}: check ${i + 1}'s name ${quoted(check.name)} ${name}: a check's name is one line of text, 1 to ${CHECK_NAME_MAX} characters, as CI shows it`,
        ['checks', i, 'name'],
      );
    if (check.url === undefined) continue;
    const url = checkUrlProblem(check.url);
    if (url !== undefined)
      return rejection(
        'invalid-text',
        `${field}: the link of check ${quoted(check.name)}, ${quoted(check.url)}, ${url}: give the http(s) address of its page, as gh pr checks prints it`,
        ['checks', i, 'url'],
      );
  }
  return undefined;
};
