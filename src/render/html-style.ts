/** The report's only styling, inlined: the page loads nothing. Print and narrow screens included. */
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff;
  --panel: #f6f8fa; --red: #cf222e; --green: #1a7f37; --amber: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #8d96a0; --line: #30363d;
  --bg: #0d1117; --panel: #161b22; --red: #ff7b72; --green: #3fb950; --amber: #d29922; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 15px/1.5 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
code, .id { font-family: ui-monospace, monospace; font-size: .9em; overflow-wrap: anywhere; }
.verdict { display: inline-block; font-weight: 700; text-transform: uppercase; letter-spacing: .05em;
  padding: .15rem .6rem; border-radius: .3rem; border: 2px solid currentColor; }
.status-converged { color: var(--green); } .status-blocked { color: var(--red); }
.status-open, .status-unopened { color: var(--amber); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: .4rem; padding: .75rem 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: .3rem;
  padding: .5rem .9rem; margin: .6rem 0; }
.finding.blocking.open { border-left-color: var(--red); }
.finding.fixed { border-left-color: var(--green); }
.tag { display: inline-block; font-size: .8em; border: 1px solid var(--line); border-radius: 1rem;
  padding: 0 .5rem; margin-right: .25rem; }
.refused { color: var(--red); }
.muted { color: var(--muted); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .5rem 0; }
dt { color: var(--muted); } dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
ol.timeline { padding-left: 1.2rem; } ol.timeline li { margin: .35rem 0; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; margin: .5rem 0; }
.charts figcaption { flex-basis: 100%; }
.chart { max-width: 100%; height: auto; color: var(--fg); print-color-adjust: exact;
  -webkit-print-color-adjust: exact; border: 1px solid var(--line); border-radius: .3rem; }
.chart text { fill: currentColor; font: 12px system-ui, sans-serif; }
.chart text.heading { font-weight: 600; }
.chart .axis line { stroke: var(--muted); stroke-width: 1; }
.chart .line { stroke: var(--red); stroke-width: 2; }
.chart .point circle { fill: var(--bg); stroke: var(--red); stroke-width: 2; }
.chart .new rect, .chart .swatch.new { fill: var(--red); }
.chart .fixed rect, .chart .swatch.fixed { fill: url(#hatch-fixed); stroke: var(--green); stroke-width: 1.5; }
.chart .hatch { stroke: var(--green); stroke-width: 1.5; }
@media print { body { max-width: none; } .finding { break-inside: avoid; } .charts { break-inside: avoid; } }
`;
