import { readFile } from 'node:fs/promises';
import { parseSshEd25519, type SshEd25519Key } from '@clearance/fold/internal/events/ssh-public-key.js';
import { ClearanceError } from '../errors.js';

/**
 * Who may sign, as git's `gpg.ssh.allowedSignersFile` says it (ssh-keygen(1), ALLOWED SIGNERS):
 * one line per key, `principals [options] keytype base64-key [comment]`, where principals are
 * comma-separated patterns (`*` and `?` wildcards, `!` negation, as OpenSSH matches them) and the
 * options include `namespaces="a,b"` (the signature namespaces the key may sign in),
 * `valid-after=`/`valid-before=` and `cert-authority`. `#` starts a comment line.
 */
export type AllowedSigner = Readonly<{
  principals: ReadonlyArray<string>;
  /** null: any namespace */
  namespaces: ReadonlyArray<string> | null;
  certAuthority: boolean;
  key: SshEd25519Key | null;
  /** the line, for messages */
  line: number;
}>;

/** Split a line into fields, a double-quoted run keeping its spaces (as OpenSSH's option syntax). */
const fields = (text: string): string[] => {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    if (!quoted && /\s/.test(c)) {
      if (current !== '') out.push(current);
      current = '';
    } else current += c;
  }
  if (current !== '') out.push(current);
  return out;
};

const optionValue = (option: string): string => option.slice(option.indexOf('=') + 1).replace(/^"|"$/g, '');

/** Every line of an allowed_signers file; a key that is not Ed25519 is kept with `key: null`. */
export const parseAllowedSigners = (text: string): AllowedSigner[] =>
  text.split('\n').flatMap((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const [principals = '', ...rest] = fields(line);
    const typeAt = rest.findIndex((f) => /^(ssh-|ecdsa-|sk-)/.test(f));
    if (typeAt < 0) return [];
    const options = rest.slice(0, typeAt).flatMap((o) => o.split(','));
    const namespaces = options.find((o) => /^namespaces=/i.test(o));
    const key = parseSshEd25519(`${rest[typeAt]} ${rest[typeAt + 1] ?? ''}`);
    return [
      {
        principals: principals.split(','),
        namespaces: namespaces === undefined ? null : optionValue(namespaces).split(','),
        certAuthority: options.some((o) => /^cert-authority$/i.test(o)),
        key: typeof key === 'string' ? null : key,
        line: i + 1,
      },
    ];
  });

/** OpenSSH's pattern match: `*` any run, `?` any one character, the whole name. */
const matches = (pattern: string, name: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')
      .replaceAll('?', '.')}$`,
  ).test(name);

/** Whether a line's principals admit `name`: some pattern matches it and no negated one does. */
const admits = (principals: ReadonlyArray<string>, name: string): boolean => {
  let matched = false;
  for (const p of principals) {
    if (p.startsWith('!')) {
      if (matches(p.slice(1), name)) return false;
    } else if (matches(p, name)) matched = true;
  }
  return matched;
};

/** The Ed25519 keys `principal` may sign with in `namespace` (certificate authorities are not keys). */
export const keysOf = (
  signers: ReadonlyArray<AllowedSigner>,
  principal: string,
  namespace: string,
): SshEd25519Key[] =>
  signers.flatMap((s) =>
    s.key !== null &&
    !s.certAuthority &&
    (s.namespaces === null || s.namespaces.includes(namespace)) &&
    admits(s.principals, principal)
      ? [s.key]
      : [],
  );

/** Every principal pattern that may sign in `namespace` with `key`, for naming who signed. */
export const principalsOf = (
  signers: ReadonlyArray<AllowedSigner>,
  key: SshEd25519Key,
  namespace: string,
): string[] =>
  signers.flatMap((s) =>
    s.key !== null &&
    !s.certAuthority &&
    s.key.keyid === key.keyid &&
    (s.namespaces === null || s.namespaces.includes(namespace))
      ? s.principals.filter((p) => !p.startsWith('!'))
      : [],
  );

export const readAllowedSigners = async (file: string): Promise<AllowedSigner[]> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ClearanceError(
      'input-unreadable',
      `cannot read --allowed-signers ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { path: file },
    );
  }
  return parseAllowedSigners(text);
};

/** A public key file (`id_ed25519.pub`, or a bare `ssh-ed25519 AAAA…` line). */
export const readPublicKey = async (file: string): Promise<SshEd25519Key> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ClearanceError(
      'key-unusable',
      `cannot read the public key ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { key: file },
    );
  }
  const key = parseSshEd25519(text);
  if (typeof key === 'string')
    throw new ClearanceError('key-unusable', `the public key ${file}: ${key}`, { key: file });
  return key;
};
