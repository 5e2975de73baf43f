/** Architecture walls (`npm run depcruise`). Paths are relative to the repository root. */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'common-not-to-modules',
      comment: 'src/common is shared by every module, so it never depends on one: move the shared piece into src/common instead.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Modules (src/modules/<name>) and shared areas (src/common/<name>, src/database, …) depend on each other in one direction only.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/(modules/|common/)?[^/]+$' },
      to: { path: '^src/(modules/|common/)?[^/]+$', circular: true },
    },
    {
      name: 'module-internals',
      comment:
        "Another module's commands/, queries/ and entities/ folders are its internals: import the public files at its root (a repository, a *.commands.ts listing the commands others may execute, a service) instead.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/(commands|queries|entities)/', pathNot: '^src/modules/$1/' },
    },
  ],
  options: {
    // The DataSource's entity list is a composition root like app.module.ts: it names every
    // module's entities on purpose, so it is no edge of src/database.
    exclude: { path: '^src/database/entities\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
