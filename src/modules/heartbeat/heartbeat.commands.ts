/** The heartbeat query and command other modules may execute through the buses (the MCP tools). */
export { AckHeartbeatCommand } from './commands/ack-heartbeat/ack-heartbeat.command';
export { GetHeartbeatQuery } from './queries/get-heartbeat/get-heartbeat.query';
