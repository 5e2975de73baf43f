import { conformanceProblems } from './openapi-conformance';

/**
 * Every test file: fails in `afterAll` when a response of a test app did not match the OpenAPI
 * document (see openapi-conformance.ts). Listed in jest.config.mjs `setupFilesAfterEnv`.
 */
afterAll(() => {
  const problems = conformanceProblems();
  if (problems.length) {
    throw new Error(`${problems.length} response(s) do not match the OpenAPI document (/api/openapi.json):\n  ${problems.join('\n  ')}`);
  }
});
