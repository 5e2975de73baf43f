// `npm run build`: compiles tsconfig.build.json into dist/ with the @nestjs/swagger compiler plugin
// (what `nest build` with the tsc builder did, without the Nest CLI: docs/DECISIONS.md, "Supported
// Node versions"). Any TypeScript error fails the build.
import { rmSync } from 'node:fs';
import { before } from '@nestjs/swagger/plugin';
import ts from 'typescript';
import { SWAGGER_PLUGIN_OPTIONS } from './swagger-plugin.mjs';

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.build.json', {}, host);
if (config.errors.length > 0) fail(config.errors);
rmSync(config.options.outDir, { recursive: true, force: true });
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const emitted = program.emit(undefined, undefined, undefined, false, { before: [before(SWAGGER_PLUGIN_OPTIONS, program)] });
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
if (diagnostics.length > 0) fail(diagnostics);

function fail(diagnostics) {
  const format = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, format));
  process.exit(1);
}
