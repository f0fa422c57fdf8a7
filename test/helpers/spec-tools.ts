// Tools as the MCP 2026-07-28 revision's pages write them, shared by the unit and property tests.

/** The spec's execute_sql tool (streamable-http "Custom Headers from Tool Parameters"; server/tools "x-mcp-header"). */
export const EXECUTE_SQL = {
  name: 'execute_sql',
  description: 'Execute SQL on Google Cloud Spanner',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', description: 'The region to execute the query in', 'x-mcp-header': 'Region' },
      query: { type: 'string', description: 'The SQL query to execute' },
    },
    required: ['region', 'query'],
  },
};
