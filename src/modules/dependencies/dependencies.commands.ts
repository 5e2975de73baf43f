/** The dependency commands and queries other modules may execute through the buses (the MCP tools), with their DTOs. */
export { AddDependencyCommand } from './commands/add-dependency/add-dependency.command';
export { AddDependencyDto } from './commands/add-dependency/add-dependency.dto';
export { RemoveDependencyCommand } from './commands/remove-dependency/remove-dependency.command';
export { ListDependenciesQuery } from './queries/list-dependencies/list-dependencies.query';
