/**
 * Fails the test during which node-postgres warned that a query was sent on a connection already
 * running one (two statements of one transaction started together, e.g. Promise.all over
 * repository calls given the same `m`; use `independently` from src/database/sql.service.ts).
 * A warning raised in a beforeAll fails the file's first test; one raised in an afterAll fails the
 * file. The warnings are collected by test/support/environment.cjs. node-postgres warns once per
 * loaded copy of the module, i.e. at the first offence of each test file.
 */
const seen = (globalThis as { __concurrentQueries?: string[] }).__concurrentQueries;

async function assertNoConcurrentQueries(): Promise<void> {
  // the warning is emitted on the next tick of the offending query call
  await new Promise((resolve) => setImmediate(resolve));
  const found = seen?.splice(0) ?? [];
  if (found.length) throw new Error(`a query was sent on a connection already running one (pg DeprecationWarning):\n${found.join('\n\n')}`);
}

afterEach(assertNoConcurrentQueries);
afterAll(assertNoConcurrentQueries);
