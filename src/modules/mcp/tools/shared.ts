import { z } from 'zod';

export const issueRef = z.string().min(1).max(200).describe('Issue reference: UUID, `12`, `#12`, `<ORG_PREFIX>-12`, `TSK-12` or `<PROJECT_KEY>-12`');
export const uuid = (what: string) => z.uuid().describe(what);
export const limit = z.number().int().min(1).max(100).optional().describe('Page size (default 25, max 100)');
export const offset = z.number().int().min(0).optional().describe('Rows to skip (default 0)');

/** Query-string style parameters for list queries that parse REST query strings: defined values only, as strings. */
export function asQuery(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (args[k] !== undefined && args[k] !== null) out[k] = String(args[k] as string | number | boolean);
  return out;
}

/** The defined entries of `args` among `keys` (a DTO's body). */
export function pick(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (args[k] !== undefined) out[k] = args[k];
  return out;
}
