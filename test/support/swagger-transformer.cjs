// ts-jest AST transformer wrapping the @nestjs/swagger CLI plugin (the same plugin `npm run build` uses: scripts/build.mjs).
const { before } = require('@nestjs/swagger/plugin');
module.exports = {
  name: 'nestjs-swagger-plugin',
  version: 1,
  factory: (tsCompiler, options) => before(options, tsCompiler.program),
};
