import { createPrivateKey, createPublicKey, sign as nodeSign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  parseSshEd25519,
  type SshEd25519Key,
  sshEd25519Text,
} from '@clearance/fold/internal/events/ssh-public-key.js';
import { ClearanceError } from '../errors.js';

/**
 * Whoever signs: an Ed25519 key from a file people already have (an OpenSSH private key, as
 * `ssh-keygen -t ed25519` writes and git signs commits with; or a PKCS#8 PEM), or a key held by the
 * running ssh-agent, which signs the exact bytes it is given and never hands the key out. Ed25519
 * only: its signatures are deterministic, so one log and one key give one attestation, byte for
 * byte. ssh2 reads the OpenSSH formats and speaks the agent's protocol; Node's crypto reads PEM.
 */
export type Signer = SshEd25519Key &
  Readonly<{
    /** where the key came from, for messages: a file, or the agent */
    source: string;
    sign: (message: Uint8Array) => Promise<Uint8Array>;
  }>;

const unusable = (spec: string, why: string, details: Readonly<Record<string, unknown>> = {}) =>
  new ClearanceError('key-unusable', `cannot sign with --key ${spec}: ${why}`, { key: spec, ...details });

type Ssh2 = typeof import('ssh2');
/**
 * ssh2 reads OpenSSH key files and speaks to the ssh-agent. It is an optional peer dependency: its
 * optional native addon would make every install compile, for the few who sign with such a key.
 * Loaded only by the commands that sign, so no other command's start-up evaluates it.
 */
const ssh2 = async (spec: string): Promise<Ssh2> => {
  try {
    return (await import('ssh2')).default as unknown as Ssh2;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    throw unusable(
      spec,
      'an OpenSSH key file or the ssh-agent is read with the ssh2 package, which is not installed: install it beside clearance (npm install ssh2), or sign with a PKCS#8 PEM key',
    );
  }
};

const publicOf = (spec: string, text: string): SshEd25519Key => {
  const key = parseSshEd25519(text);
  if (typeof key === 'string') throw unusable(spec, key);
  return key;
};

/** A PKCS#8 PEM file: Node's crypto reads it; the public key is derived from it. */
const pemSigner = (spec: string, pem: string): Signer => {
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(pem);
  } catch (e) {
    throw unusable(spec, `not a PEM private key Node can read (${(e as Error).message})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw unusable(
      spec,
      `it is a ${privateKey.asymmetricKeyType ?? 'unknown'} key: only Ed25519 keys sign here`,
    );
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
  return {
    ...publicOf(spec, sshEd25519Text(raw)),
    source: spec,
    sign: async (message) => new Uint8Array(nodeSign(null, message, privateKey)),
  };
};

/** An OpenSSH private key file (`-----BEGIN OPENSSH PRIVATE KEY-----`), encrypted or not. */
const opensshSigner = async (
  spec: string,
  bytes: Buffer,
  passphrase: string | undefined,
): Promise<Signer> => {
  const { utils } = await ssh2(spec);
  const parsed = utils.parseKey(bytes, passphrase);
  if (parsed instanceof Error) {
    const encrypted = /encrypted|passphrase|bad decrypt/i.test(parsed.message);
    throw unusable(
      spec,
      encrypted
        ? 'the key is encrypted: set CLEARANCE_KEY_PASSPHRASE, or add it to ssh-agent and give --key agent'
        : parsed.message,
    );
  }
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (key === undefined || key.type !== 'ssh-ed25519')
    throw unusable(spec, `it is a ${key?.type ?? 'unknown'} key: only Ed25519 keys sign here`);
  if (!key.isPrivateKey()) throw unusable(spec, 'it is a public key: --key names the private key (or agent)');
  return {
    ...publicOf(spec, `ssh-ed25519 ${key.getPublicSSH().toString('base64')}`),
    source: spec,
    sign: async (message) => new Uint8Array(key.sign(Buffer.from(message))),
  };
};

/**
 * The agent's Ed25519 key: the only one it holds, or the one whose fingerprint (`SHA256:…`) or
 * comment follows `agent:`. The agent signs; the key never leaves it.
 */
const agentSigner = async (
  spec: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Signer> => {
  const socket = env.SSH_AUTH_SOCK;
  if (socket === undefined || socket === '')
    throw unusable(
      spec,
      'no ssh-agent: SSH_AUTH_SOCK is not set (start one: eval "$(ssh-agent)"; ssh-add KEY)',
    );
  const { OpenSSHAgent } = await ssh2(spec);
  const agent = new OpenSSHAgent(socket);
  // what the agent lists: parsed public keys (type, comment, the SSH blob)
  type Identity = import('ssh2').ParsedKey;
  const identities = await new Promise<Identity[]>((resolve, reject) =>
    agent.getIdentities((e, keys) =>
      e
        ? reject(unusable(spec, `the agent at ${socket} did not answer: ${e.message}`))
        : resolve((keys ?? []).filter((k): k is Identity => 'getPublicSSH' in k)),
    ),
  );
  const wanted = spec.slice('agent:'.length);
  const ed25519 = identities
    .filter((k) => k.type === 'ssh-ed25519')
    .map((k) => ({ identity: k, key: publicOf(spec, `ssh-ed25519 ${k.getPublicSSH().toString('base64')}`) }));
  const chosen =
    wanted === '' ? ed25519 : ed25519.filter((k) => k.key.keyid === wanted || k.identity.comment === wanted);
  if (chosen.length !== 1)
    throw unusable(
      spec,
      chosen.length === 0
        ? `the agent holds no Ed25519 key${wanted === '' ? '' : ` named ${wanted}`} (ssh-add -l lists them)`
        : `the agent holds ${chosen.length} Ed25519 keys: name one, --key agent:SHA256:… (ssh-add -l lists them)`,
    );
  const [{ identity, key }] = chosen as [(typeof chosen)[number]];
  return {
    ...key,
    source: `the ssh-agent key ${key.keyid}`,
    sign: (message) =>
      new Promise((resolve, reject) =>
        agent.sign(identity, Buffer.from(message), {}, (e, signature) =>
          e || signature === undefined
            ? reject(unusable(spec, `the agent refused to sign: ${e?.message ?? 'no signature'}`))
            : resolve(new Uint8Array(signature)),
        ),
      ),
  };
};

/**
 * The signer `--key` names: `agent` (or `agent:<fingerprint or comment>`), or a private key file.
 * An encrypted OpenSSH key is opened with CLEARANCE_KEY_PASSPHRASE, never asked for on a terminal.
 */
export const signerOf = async (
  spec: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Signer> => {
  if (spec === 'agent' || spec.startsWith('agent:')) return agentSigner(spec, env);
  let bytes: Buffer;
  try {
    bytes = await readFile(spec);
  } catch (e) {
    throw unusable(spec, `cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const text = bytes.toString('utf8');
  if (text.includes('-----BEGIN OPENSSH PRIVATE KEY-----'))
    return opensshSigner(spec, bytes, env.CLEARANCE_KEY_PASSPHRASE);
  if (text.includes('-----BEGIN PRIVATE KEY-----')) return pemSigner(spec, text);
  if (text.startsWith('ssh-ed25519 '))
    throw unusable(spec, 'it is a public key: --key names the private key (or agent)');
  throw unusable(spec, 'not an OpenSSH or PKCS#8 PEM private key');
};
