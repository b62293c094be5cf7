import type * as t from 'io-ts';
import * as z from 'zod';
import { CostCodec } from './codecs/cost-codec.js';
import { PolicyCodecV2 } from './codecs/policy-v2.js';
import { ReportCodecV4 } from './codecs/report-v4.js';
import { ReportCodecV5 } from './codecs/report-v5.js';
import { LineMoveV1 } from './codecs/revision-captured-v3.js';
import type { EventType } from './event.js';
import { LineMoveSchema } from './line-move-schema.js';
import { PolicySchema } from './policy-schema.js';
import { EVENT_TYPES, latestCodec, latestVersion } from './registry.js';
import { RecordedCostSchema, ReportSchema } from './round-report.js';

/**
 * One log line as a JSON Schema, for `clearance schema event`: readers of the log in other
 * languages get every event at its latest version. Nothing here spells an event again: each line's
 * `data` is the io-ts codec the registry decodes that version with, turned into zod, and where a
 * line holds what a door took in (the report, the policy, a cost) it is the door's schema.
 */

/** What a door took in, described as the door describes it (a line move as the capture result does). */
const AT_THE_DOOR: ReadonlyMap<t.Mixed, z.ZodType> = new Map<t.Mixed, z.ZodType>([
  [ReportCodecV4, ReportSchema],
  [ReportCodecV5, ReportSchema],
  [LineMoveV1, LineMoveSchema],
  [PolicyCodecV2, PolicySchema],
  [CostCodec, RecordedCostSchema],
]);

/** What a field means, where its name does not say it: by event type, then field (`a.b`: b inside a). */
const NOTES: Readonly<Partial<Record<EventType, Readonly<Record<string, string>>>>> = {
  'revision.captured': {
    sameInput: 'a recorded choice to review again the input the round before reviewed, and why',
  },
  'round.recorded': {
    reportSha: "SHA-256 of the report's RFC 8785 canonical JSON",
    result: 'partial: the budget ran out or a reviewer handed in nothing',
  },
  'stage.finished': {
    outputSha: 'SHA-256 of the output, archived at <dir>/runs/<runId>/objects/<sha>',
  },
  'finding.ruled': { signature: 'under a policy that pins signers: Ed25519 by the key of `by`' },
  'rounds.extended': { signature: 'under a policy that pins signers: Ed25519 by the key of `by`' },
  'contribution.recorded': {
    reportSha: "SHA-256 of the report's RFC 8785 canonical JSON",
    expert: "the reviewer (the log's spelling of it); absent for an anonymous contribution",
  },
  'contribution.absent': { expert: "the reviewer who handed in nothing usable (the log's spelling of it)" },
  'reproduction.recorded': {
    round: 'the round in progress, whose input the reproduction ran on',
    findingId: 'the full id of a finding that carries a reproduction',
    outputSha: 'SHA-256 of what the reproduction printed, archived under the run',
  },
  'finding.disputed': {
    findingId: 'the full id of an open finding',
    round: 'the round in progress when the author disputed it: the round that must rule on it',
    reason: "the author's one line of reasoning: why the finding is wrong",
  },
  'checks.recorded': {
    round: 'the round in progress, whose captured input the checks ran on',
    checks: 'every check CI reported on that input, as it finished',
    'checks.name': 'the check as CI names it',
    'checks.url': "the check's page (its log), an http(s) URL",
  },
};

/**
 * What a writer puts in a line beyond its codec's fields, which a reader ignores: the one place it
 * is spelled (the decider writes it; no codec declares it, so no log's meaning depends on it).
 */
const UNDECLARED: Readonly<Partial<Record<EventType, z.ZodRawShape>>> = {
  'round.failed': {
    runId: z
      .string()
      .optional()
      .describe('the run: every line clearance writes carries it; readers ignore it'),
  },
};

type Notes = Readonly<Record<string, string>>;

/** The notes for the fields inside `key`. */
const notesIn = (notes: Notes, key: string): Notes =>
  Object.fromEntries(
    Object.entries(notes).flatMap(([path, note]) =>
      path.startsWith(`${key}.`) ? [[path.slice(key.length + 1), note]] : [],
    ),
  );

type Codec = t.Mixed & { _tag: string; props?: t.Props; types?: t.Mixed[]; type?: t.Mixed; keys?: object };

/** An object codec's fields in order, each with whether it may be absent. */
const fieldsOf = (codec: Codec): Array<[string, t.Mixed, boolean]> => {
  if (codec._tag === 'InterfaceType') return Object.entries(codec.props ?? {}).map(([k, c]) => [k, c, false]);
  if (codec._tag === 'PartialType') return Object.entries(codec.props ?? {}).map(([k, c]) => [k, c, true]);
  if (codec._tag === 'IntersectionType') return (codec.types ?? []).flatMap((c) => fieldsOf(c as Codec));
  throw new Error(`event-schema: ${codec.name} is no object of fields`);
};

const noNotes = (notes: Notes, codec: Codec): void => {
  const paths = Object.keys(notes);
  if (paths.length > 0) throw new Error(`event-schema: notes on ${paths.join(', ')}, inside ${codec.name}`);
};

/** An object codec as a zod object with exactly its fields (and `extra` first), as clearance writes it. */
const objectOf = (codec: Codec, notes: Notes, extra: z.ZodRawShape = {}): z.ZodObject => {
  const fields = fieldsOf(codec);
  noNotes(
    Object.fromEntries(
      Object.entries(notes).filter(([path]) => !fields.some(([k]) => path.split('.')[0] === k)),
    ),
    codec,
  );
  return z.strictObject({
    ...extra,
    ...Object.fromEntries(
      fields.map(([key, field, optional]) => {
        const inner = zodOf(field, notesIn(notes, key));
        const value = optional ? inner.optional() : inner;
        return [key, notes[key] === undefined ? value : value.describe(notes[key])];
      }),
    ),
  });
};

/** A codec as zod. */
const zodOf = (mixed: t.Mixed, notes: Notes = {}): z.ZodType => {
  const codec = mixed as Codec;
  const door = AT_THE_DOOR.get(mixed);
  if (door !== undefined) {
    noNotes(notes, codec);
    return door;
  }
  switch (codec._tag) {
    case 'ArrayType':
      return z.array(zodOf(codec.type as t.Mixed, notes));
    case 'InterfaceType':
    case 'PartialType':
    case 'IntersectionType':
      return objectOf(codec, notes);
  }
  noNotes(notes, codec);
  switch (codec._tag) {
    case 'StringType':
      return z.string();
    case 'NumberType':
      // every number an event holds beyond a cost (the door's) is a round, a count of rounds or an
      // index: whole, as every writer writes it (test/events/event-schema.test.ts holds lines to it)
      return z.number().int();
    case 'BooleanType':
      return z.boolean();
    case 'KeyofType':
      return z.enum(Object.keys(codec.keys ?? {}) as [string, ...string[]]);
    default:
      throw new Error(`event-schema: no JSON Schema for ${codec.name} (${codec._tag})`);
  }
};

const envelope = (type: EventType) =>
  z.strictObject({
    seq: z.number().int().min(1).describe('1, 2, 3 … with no gaps'),
    type: z.literal(type),
    v: z.literal(latestVersion(type)).describe('the version of this event type the line was written with'),
    at: z.string().describe('ISO 8601 time of the append (audit only; the fold never reads it)'),
    by: z.string().describe('who appended (audit only; the fold never reads it)'),
    prev: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("SHA-256 (hex) of the previous line's bytes, 64 zeros for the first"),
    data: objectOf(latestCodec(type) as Codec, NOTES[type] ?? {}, UNDECLARED[type]),
  });

export const EventLineSchema = z
  .discriminatedUnion('type', EVENT_TYPES.map(envelope) as [ReturnType<typeof envelope>])
  .describe('one line of a clearance run log (<dir>/runs/<runId>.jsonl)');

export const eventJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(EventLineSchema, { io: 'input' }) as Record<string, unknown>;
