// Some of Node's own modules cost a start-up more than the command uses them: `child_process` (which
// loads `net`, `dgram` and the streams) for commander's executable subcommands and for git, `crypto`
// for the random names of a write, `fs/promises` (which loads `readline`). Each is about a tenth of
// `node -e 0` on Node 20, and `--version` or `status --dir` never calls any of them.
//
// A chunk reads a named import of a Node module as a property at each use
// (`import_node_crypto.randomBytes(…)`, scripts/bundle-cli.mjs), so a stand-in object whose first
// property read loads the real module defers the cost to the first call, and a command that never
// calls pays nothing. Only modules whose exports are a plain object are deferred: a module that is
// itself a function (`events`, `assert`) must stay what it is.
const DEFERRED: ReadonlySet<string> = new Set(
  ['child_process', 'crypto', 'fs/promises', 'timers/promises'].flatMap((m) => [m, `node:${m}`]),
);

type Require = (spec: string) => unknown;

/** A stand-in for `load()`'s module that loads it on the first look at any of its properties. */
const deferred = (load: () => object): object => {
  let real: object | undefined;
  const module = (): object => {
    real ??= load();
    return real;
  };
  return new Proxy(
    {},
    {
      get: (_, key) => Reflect.get(module(), key),
      has: (_, key) => Reflect.has(module(), key),
      ownKeys: () => Reflect.ownKeys(module()),
      // reported configurable: the stand-in itself holds none of them, and a proxy may not claim
      // a fixed property its target does not have (`crypto.constants` is fixed on the real module)
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(module(), key);
        return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(module()),
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    },
  );
};

/** `nodeRequire`, with the modules above handed out as stand-ins that load on first use. */
export const deferringRequire = (nodeRequire: Require): Require => {
  const standIns = new Map<string, object>();
  return (spec) => {
    if (!DEFERRED.has(spec)) return nodeRequire(spec);
    let standIn = standIns.get(spec);
    if (standIn === undefined) {
      standIn = deferred(() => nodeRequire(spec) as object);
      standIns.set(spec, standIn);
    }
    return standIn;
  };
};
