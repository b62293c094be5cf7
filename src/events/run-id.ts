/**
 * The grammar of a run id, on every path (the CLI, the MCP server's tool schemas, the stores): 1-128
 * characters of A-Z a-z 0-9 . _ -, starting with a letter or digit, never holding "..". A run id
 * becomes a file name and a database key, so nothing else is ever accepted.
 */
export const RUN_ID_PATTERN = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export const isRunId = (name: string): boolean => RUN_ID_PATTERN.test(name);
