import canonicalize from 'canonicalize';
import { sha256Hex } from './sha256.js';

/** RFC 8785 (JCS) canonical JSON: the same value always gives the same bytes. */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON representation');
  return text;
};

/** `reportSha`: SHA-256 of the report's canonical JSON, so key order and spacing never change it. */
export const reportSha = (report: unknown): string => sha256Hex(canonicalJson(report));

/**
 * `reportSha`, or null for a value with no canonical JSON (a lone surrogate, which RFC 8785 forbids):
 * for checking an event read back from a log, where throwing would stop the fold.
 */
export const reportShaIfCanonical = (report: unknown): string | null => {
  try {
    return reportSha(report);
  } catch {
    return null;
  }
};
