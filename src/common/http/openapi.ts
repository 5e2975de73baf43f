import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { aliasesOf } from './aliases';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'Readable message' },
    code: { type: 'string', description: 'Stable machine-readable code' },
  },
  additionalProperties: true,
};

const STANDARD_ERRORS: Record<string, string> = {
  '400': 'Invalid request (validation error, malformed JSON, bad query parameter)',
  '401': 'Missing or invalid credentials: `{ "error": "Unauthorized", "code": "unauthorized" }`',
  '403': 'Authenticated but not allowed (readable without write access, wrong role)',
  '404': 'Not found, or not visible to the caller (concealed)',
  '429': 'Rate limited',
  '500': 'Unexpected server error (no internals in the body)',
};

/** The OpenAPI 3.1.0 document: every route, its schemas, the two auth schemes and error responses. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Project management and agent collaboration service')
    .setDescription(
      'Multi-tenant REST API. Humans authenticate with a web-session cookie; agents with `Authorization: Bearer sk_service_<key>`. ' +
        'Requests accept camelCase and the documented snake_case aliases; responses are snake_case. Errors are `{ error, code? }`.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'sk_service_<key>', description: 'Agent API key of the form `sk_service_<key>`' }, 'apiKey')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: "OAuth 2.1 access token for this service's MCP resource (`/mcp`), issued by `/api/oauth/token`",
      },
      'oauth',
    )
    .addCookieAuth('sid', { type: 'apiKey', in: 'cookie', name: 'sid', description: 'Human web session (httpOnly, SameSite=Lax)' }, 'session')
    .addSecurityRequirements('apiKey')
    .addSecurityRequirements('session')
    .build();
  const doc = SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Error = ERROR_SCHEMA as never;
  for (const item of Object.values(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = item[method];
      if (!op) continue;
      // @Public() routes carry an empty requirement: state "no authentication" as `security: []`.
      const isPublic = Array.isArray(op.security) && op.security.every((req) => Object.keys(req).length === 0);
      if (isPublic) op.security = [];
      for (const [status, description] of Object.entries(STANDARD_ERRORS)) {
        if (isPublic && (status === '401' || status === '403')) continue;
        op.responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      }
    }
  }
  documentAliases(app, doc);
  return doc;
}

type Class = abstract new (...args: never[]) => unknown;

/**
 * The accepted aliases of every request DTO (declared with `@Alias`): each canonical property's
 * description ends with "Also accepted as `…`." and the schema carries `x-aliases`, so generated
 * clients and readers see every accepted name.
 */
function documentAliases(app: INestApplication, doc: OpenAPIObject): void {
  const seen = new Set<Class>();
  const visit = (type: Class): void => {
    if (seen.has(type)) return;
    seen.add(type);
    const schema = doc.components?.schemas?.[type.name] as { properties?: Record<string, Record<string, unknown>> } | undefined;
    for (const [prop, spec] of aliasesOf(type)) {
      if (spec.nested) visit(spec.nested());
      const target = schema?.properties?.[prop];
      if (!target || !spec.names.length) continue;
      const note = `Also accepted as ${spec.names.map((n) => `\`${n}\``).join(', ')}.`;
      target.description = typeof target.description === 'string' && target.description ? `${target.description.replace(/\.$/, '')}. ${note}` : note;
      target['x-aliases'] = spec.names;
    }
  };
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const proto = (wrapper.metatype as Class | null)?.prototype as object | undefined;
      if (!proto) continue;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const params = (Reflect.getMetadata('design:paramtypes', proto, method) ?? []) as unknown[];
        for (const p of params) if (typeof p === 'function' && p !== Object) visit(p as Class);
      }
    }
  }
}

export function setupOpenApi(app: INestApplication): void {
  const doc = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/openapi.json', raw: ['json'] });
}
