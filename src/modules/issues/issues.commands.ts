/** The issue commands and queries other modules may execute through the buses (the MCP tools), with their DTOs. */
export { CreateIssueCommand } from './commands/create-issue/create-issue.command';
export { CreateIssueDto } from './commands/create-issue/create-issue.dto';
export { UpdateIssueCommand } from './commands/update-issue/update-issue.command';
export { UpdateIssueDto } from './commands/update-issue/update-issue.dto';
export { GetIssueQuery } from './queries/get-issue/get-issue.query';
