/**
 * `true` when a decoded value is a valid domain value and neither type has a field the other
 * lacks: a compile-time guard that an io-ts codec and the domain type it decodes into agree.
 */
export type SameShape<Persisted, Domain> = Persisted extends Domain
  ? keyof Persisted extends keyof Domain
    ? keyof Domain extends keyof Persisted
      ? true
      : never
    : never
  : never;
