import * as z from 'zod';

/** Where a capture moved an open finding's cited line, mapped through the diff since the last reviewed input. */
export const LineMoveSchema = z
  .strictObject({
    id: z.string().describe('the finding'),
    from: z.number().int().describe('the line it stood at in the input the last round reviewed'),
    to: z.number().int().describe('the line it stands at in this input (where its code was, when outdated)'),
    outdated: z
      .literal(true)
      .optional()
      .describe('its line was deleted or rewritten: it stays open, and the round decides it'),
  })
  .describe("an open finding's line, followed through the diff");
