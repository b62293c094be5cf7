/**
 * An independent reading of git's `--name-status -z` output for the tests to compare with: written
 * separately from `parseNameStatus` so that a shared mistake cannot make both sides agree.
 */
export type Expected = { touched: string[]; renames: Array<{ from: string; to: string }> };

export const expectedChanges = (raw: string): Expected => {
  const tokens = raw.split('\0');
  const touched: string[] = [];
  const renames: Array<{ from: string; to: string }> = [];
  while (tokens.length > 1) {
    const status = tokens.shift() as string;
    if (/^[RC]\d*$/.test(status)) {
      const from = tokens.shift() as string;
      const to = tokens.shift() as string;
      if (status.startsWith('R')) renames.push({ from, to });
      touched.push(to);
    } else if (/^[AMDT]$/.test(status)) {
      touched.push(tokens.shift() as string);
    } else {
      throw new Error(`unexpected status ${JSON.stringify(status)} in ${JSON.stringify(raw)}`);
    }
  }
  return { touched, renames };
};
