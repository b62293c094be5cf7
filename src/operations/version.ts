/** clearance's version: `--version`, the MCP server's name, SARIF's and the HTML report's tool. */
export const VERSION = '0.1.0';
