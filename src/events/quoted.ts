import { showControls } from '../text/untrusted.js';

/** Enough of a refused value for a person to recognise it; the field's bound can be thousands. */
const SHOWN = 120;

/**
 * A refused value as a message quotes it: JSON-quoted (so quotes, backslashes and C0 controls are
 * escaped), then every control and bidi character JSON leaves raw shown escaped too, so the message
 * itself holds nothing a terminal or a CI runner acts on. A long value is cut, and says so.
 */
export const quoted = (value: string): string =>
  value.length > SHOWN
    ? `${showControls(JSON.stringify(value.slice(0, SHOWN)))}… (${value.length} characters)`
    : showControls(JSON.stringify(value));
