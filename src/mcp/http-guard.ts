import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/**
 * Who may reach the HTTP server, decided before a request's body is read. A server on loopback is
 * open to any program on the machine, and to a web page through DNS rebinding (a page at
 * evil.example whose name comes to resolve to 127.0.0.1 talks to it as to its own origin): so a
 * request must name a loopback host (`Host`, port aside, as the SDK's `hostHeaderValidation` has
 * it) and, when a browser says where it comes from (`Origin`), come from a loopback page. A server
 * on any other address needs a bearer token (`CLEARANCE_MCP_TOKEN`): without it, or with another,
 * a request is answered 401 before anything is read. The SDK's own helpers are Express middleware
 * and deprecated transport options; these are the same checks on Node's own request.
 */

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A hostname (as the URL API writes it: IPv6 in brackets) that only reaches this machine. */
export const isLoopback = (hostname: string): boolean => {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) === 4 ? bare.startsWith('127.') : bare === '::1';
};

const hostnameOf = (authority: string): string | undefined => {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
};

const originHostname = (origin: string): string | undefined => {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Why a request's `Host` or `Origin` is refused (403), or `undefined`. On loopback both must be
 * loopback names; on another address the token stands guard, and an `Origin` must still be the
 * host the request names (a page elsewhere never drives the server).
 */
export const originProblem = (headers: IncomingHttpHeaders, loopback: boolean): string | undefined => {
  const host = headers.host === undefined ? undefined : hostnameOf(headers.host);
  if (host === undefined) return 'the request names no valid Host';
  if (loopback && !isLoopback(host))
    return 'the request names a Host that is not this machine (DNS rebinding?)';
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const from = originHostname(origin);
  if (from === undefined) return 'the request comes from an Origin that is not a web page of http or https';
  if (loopback ? !isLoopback(from) : from !== host)
    return 'the request comes from a web page of another Origin';
  return undefined;
};

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether `Authorization: Bearer <token>` names this token, compared in constant time. */
export const bearerMatches = (authorization: string | undefined, token: string): boolean => {
  const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
};
