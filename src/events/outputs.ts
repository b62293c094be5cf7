import type { DomainEvent } from './event.js';

/**
 * The archived output an event names, if any: a finished stage's, or a re-run reproduction's. The
 * store archives the bytes before the event; `verify`, `export` and `import` look for them here.
 */
export const outputShaOf = (event: DomainEvent): string | null => {
  switch (event.type) {
    case 'stage.finished':
      return event.data.outputSha;
    case 'reproduction.recorded':
      return event.data.outputSha ?? null;
    default:
      return null;
  }
};
