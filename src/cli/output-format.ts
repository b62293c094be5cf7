import { Option } from 'commander';

export type OutputFormat = 'text' | 'github';

/** `--format github` for every command: the program's option, so a CI step can give it to any of them. */
export const formatOption = (): Option =>
  new Option(
    '--format <format>',
    'text for people, or github for a GitHub Actions step: status, findings and gate add annotations (workflow commands) and append a Markdown step summary to $GITHUB_STEP_SUMMARY when it is set; every other line is printed where the runner acts on no command',
  )
    .choices(['text', 'github'])
    .default('text');
