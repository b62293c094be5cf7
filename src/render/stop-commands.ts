/** A stop token: long and random enough that no reviewer guesses it, and a name the runner reads whole. */
const STOP_TOKEN = /^[A-Za-z0-9]{16,}$/;

/**
 * Text between `::stop-commands::<token>` and `::<token>::`: the runner acts on no workflow command
 * until the line that names the token (actions/runner, `ActionCommandManager`), so a line of the
 * text that a runner would read as a command (`::add-mask::`, `##[error]`) is only shown. Every
 * value in the text is encoded already (`plainText`); the region is the runner's own defence on
 * top. The token is the caller's: fresh randomness for each run, never derived from the text, and
 * never printed inside the region (nothing a reviewer wrote can end it).
 */
export const commandsStopped = (token: string, text: string): string => {
  if (!STOP_TOKEN.test(token)) throw new Error('a stop token is 16 or more letters and digits');
  if (text.includes(token)) throw new Error('the text holds the stop token');
  return `::stop-commands::${token}\n${text}\n::${token}::`;
};
