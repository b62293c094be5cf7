/**
 * The Chromium the browser tests drive: Debian's, or CLEARANCE_CHROMIUM; headless, with a fresh
 * profile and nothing that reaches the network on its own.
 */
export const CHROMIUM = process.env.CLEARANCE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
