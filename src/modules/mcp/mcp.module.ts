import { Module, type OnModuleInit } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module';
import { OAuthModule } from '../oauth/oauth.module';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpTools } from './mcp-tools.registry';
import { COLLABORATION_TOOLS } from './tools/collaboration.tools';
import { EXECUTION_TOOLS } from './tools/executions.tools';
import { HEARTBEAT_TOOLS } from './tools/heartbeat.tools';
import { ISSUE_TOOLS } from './tools/issues.tools';

/**
 * The MCP endpoint (issue 16) and its tools. A tool is a definition (tools/*.tools.ts) that
 * dispatches a query or command of its module by class on the shared buses; to add the tools of a
 * module built later, write its tools file and register it here.
 */
@Module({
  imports: [OAuthModule, IssuesModule],
  controllers: [McpController],
  providers: [McpTools, McpServerFactory],
})
export class McpModule implements OnModuleInit {
  constructor(private readonly tools: McpTools) {}

  onModuleInit(): void {
    this.tools.register(...ISSUE_TOOLS, ...COLLABORATION_TOOLS, ...HEARTBEAT_TOOLS, ...EXECUTION_TOOLS);
  }
}
