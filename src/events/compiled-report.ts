/**
 * A well-formed round report's value, exactly as zod's ReportSchema gives it back, or `undefined`
 * where this parser does not vouch for the input (zod then decides, and names what is wrong). The
 * build puts in its place the parser zod's compiler makes of ReportSchema
 * (scripts/compile-report-parser.mjs), in lib/ and the CLI bundle: a well-formed report is parsed
 * without building zod's schema graph, which cost `record` a tenth of a bare Node start. Unbuilt,
 * as here, it vouches for nothing and zod parses every report.
 */
export const parseCompiledReport = (_input: unknown): unknown => undefined;
