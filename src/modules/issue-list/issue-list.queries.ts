/** The issue-list queries other modules may execute through the query bus (the MCP tools). */
export { ListIssuesQuery } from './queries/list-issues/list-issues.query';
export { parseIssueListParams } from './list-params';
