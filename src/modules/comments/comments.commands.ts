/** The comment commands and queries other modules may execute through the buses (the MCP tools), with their DTOs. */
export { CreateCommentCommand } from './commands/create-comment/create-comment.command';
export { CreateCommentDto } from './commands/create-comment/create-comment.dto';
export { ListCommentsQuery } from './queries/list-comments/list-comments.query';
