/** Options of the @nestjs/swagger compiler plugin: the build (scripts/build.mjs) and the tests (jest.config.mjs) use the same. */
export const SWAGGER_PLUGIN_OPTIONS = { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts', '.response.ts'] };
