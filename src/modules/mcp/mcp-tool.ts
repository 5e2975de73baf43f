import type { Type } from '@nestjs/common';
import type { z } from 'zod';
import type { Actor } from '../../common/auth/principal';

/** What a tool's `dispatch` gets besides its arguments. */
export interface McpToolContext {
  /** The agent the call acts as (API key, or the OAuth connection's selected profile), read live. */
  actor: Actor;
  /** A request DTO exactly as REST validates it (aliases, class-validator, the same 400 messages). */
  dto<T extends object>(type: Type<T>, value: Record<string, unknown>): Promise<T>;
  /** The canonical UUID of an issue named by any reference form (UUID, `12`, `#12`, `KEY-12`), with the REST errors. */
  issueId(reference: string): Promise<string>;
}

/**
 * One MCP tool: a JSON-Schema'd input (zod) and the query or command it dispatches on the same
 * buses as REST (never a second implementation). `org_id` and `profile_ref` are added to every
 * input by the server. Errors thrown by the handlers become tool errors with the REST `code`.
 */
export interface McpToolDefinition<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title?: string;
  description: string;
  input: I;
  /** `query` or `command`: which bus executes what `dispatch` builds. */
  bus: 'query' | 'command';
  dispatch(ctx: McpToolContext, args: z.infer<z.ZodObject<I>>): Promise<object> | object;
  /** Turns the handler's result into the tool's structured result (default: as is). */
  result?(value: unknown): Record<string, unknown>;
  readOnly?: boolean;
}

/** Typed helper for tool files: `defineTool({ ... })`. */
export const defineTool = <I extends z.ZodRawShape>(def: McpToolDefinition<I>): McpToolDefinition => def as unknown as McpToolDefinition;
