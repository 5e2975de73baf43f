/** The milestone queries other modules may execute through the query bus (the MCP tools). */
export { ListMilestonesQuery } from './queries/list-milestones/list-milestones.query';
