import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import type pg from 'pg';
import { ClearanceError } from '../../errors.js';

/** Stage outputs, content-addressed per run, as in the file store's `objects/` directory. */
export const archiveOutputPostgres = async (
  client: pg.ClientBase,
  runId: string,
  bytes: Uint8Array,
): Promise<string> => {
  const sha = sha256Hex(bytes);
  await client.query(
    'INSERT INTO clearance.objects (run_id, sha, bytes) VALUES ($1, $2, $3) ON CONFLICT (run_id, sha) DO NOTHING',
    [runId, sha, Buffer.from(bytes)],
  );
  return sha;
};

export const readOutputPostgres = async (
  client: pg.ClientBase,
  runId: string,
  sha: string,
): Promise<Buffer> => {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new ClearanceError('usage', `not an output id: ${sha}`);
  const result = await client.query<{ bytes: Buffer }>(
    'SELECT bytes FROM clearance.objects WHERE run_id = $1 AND sha = $2',
    [runId, sha],
  );
  const bytes = result.rows[0]?.bytes;
  if (bytes === undefined)
    throw new ClearanceError('integrity', `the output ${sha} of run ${runId} is not in its archive`, { sha });
  return bytes;
};
