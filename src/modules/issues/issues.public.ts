/**
 * What other modules may use from the issues module's commands/ and entities/ folders (those
 * folders are its internals; see .dependency-cruiser.cjs). Named exports only: no wildcard
 * re-exports, so this file never pulls the module's handlers in at load time.
 */
export { UpdateIssueCommand } from './commands/update-issue/update-issue.command';
export { CreateIssueDto } from './commands/create-issue/create-issue.dto';
export { UpdateIssueDto } from './commands/update-issue/update-issue.dto';
export { BUILTIN_STATUSES, IssueEntity } from './entities/issue.entity';
export type { RecurrenceMode, RecurrenceType, Weekday } from './entities/issue.entity';
