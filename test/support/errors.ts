/**
 * A validation 400 without its `details` (issue 13: `details` lists `{ field, message }` for the
 * request checks), after checking them: each a field (or null) and a message, the messages joined
 * being `error`. For tests that compare the rest of the error shape exactly.
 */
export function withoutDetails(body: { error?: unknown; details?: unknown; [k: string]: unknown }): Record<string, unknown> {
  const { details, ...rest } = body;
  if (details !== undefined) {
    if (!Array.isArray(details) || details.length === 0) throw new Error(`details must be a non-empty array: ${JSON.stringify(details)}`);
    for (const d of details as Array<Record<string, unknown>>) {
      if (Object.keys(d).sort().join() !== 'field,message' || typeof d.message !== 'string' || (d.field !== null && typeof d.field !== 'string'))
        throw new Error(`a detail is { field, message }: ${JSON.stringify(d)}`);
    }
    const joined = (details as Array<{ message: string }>).map((d) => d.message).join('; ');
    if (joined !== body.error) throw new Error(`error must join the details' messages: ${JSON.stringify(body.error)} vs ${JSON.stringify(joined)}`);
  }
  return rest;
}
