/** The initiative and target commands and queries other modules may execute through the buses (the MCP tools), with their DTOs. */
export { ListInitiativesQuery } from './queries/list-initiatives/list-initiatives.query';
export { LinkIssueInitiativeCommand } from './commands/link-issue-initiative/link-issue-initiative.command';
export { IssueInitiativeLinkDto } from './commands/link-issue-initiative/link-issue-initiative.dto';
export { ListTargetsQuery } from './queries/list-targets/list-targets.query';
export { UpdateTargetCommand } from './commands/update-target/update-target.command';
export { UpdateTargetDto } from './commands/update-target/update-target.dto';
