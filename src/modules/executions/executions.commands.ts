/** The execution commands other modules may execute through the buses (the MCP tools), with their DTOs. */
export { AcknowledgeAttentionCommand } from './commands/acknowledge-attention/acknowledge-attention.command';
export { AcknowledgeAttentionDto } from './commands/acknowledge-attention/acknowledge-attention.dto';
export { CreateAttentionCommand } from './commands/create-attention/create-attention.command';
export { CreateAttentionDto } from './commands/create-attention/create-attention.dto';
export { CreateExecutionCommand } from './commands/create-execution/create-execution.command';
export { CreateExecutionDto } from './commands/create-execution/create-execution.dto';
export { TransitionExecutionCommand } from './commands/transition-execution/transition-execution.command';
export { TransitionExecutionDto } from './commands/transition-execution/transition-execution.dto';
