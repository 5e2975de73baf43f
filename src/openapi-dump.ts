import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { openApiDocumentWithoutServices } from './openapi-document';

/**
 * `node dist/src/openapi-dump.js <file>` (npm run openapi:dump): writes the OpenAPI document, as
 * served at /api/openapi.json, without a database or Redis. Used by the lint and the typed client.
 */
async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: openapi-dump <output file>');
  writeFileSync(out, `${JSON.stringify(await openApiDocumentWithoutServices(), null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`openapi-dump failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
