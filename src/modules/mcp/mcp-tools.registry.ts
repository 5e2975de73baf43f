import { Injectable } from '@nestjs/common';
import type { McpToolDefinition } from './mcp-tool';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The tools the MCP endpoint offers. Tool files (tools/*.tools.ts) register arrays of
 * definitions; a module built later adds its tools by registering one more file (see McpModule).
 */
@Injectable()
export class McpTools {
  private readonly tools = new Map<string, McpToolDefinition>();

  register(...defs: McpToolDefinition[]): void {
    for (const d of defs) {
      if (!NAME.test(d.name)) throw new Error(`MCP tool name ${d.name} is not snake_case`);
      if (this.tools.has(d.name)) throw new Error(`MCP tool ${d.name} is registered twice`);
      this.tools.set(d.name, d);
    }
  }

  get(name: string): McpToolDefinition | undefined {
    return this.tools.get(name);
  }

  all(): McpToolDefinition[] {
    return [...this.tools.values()];
  }
}
