import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import { ORG_SCOPE, type OrgScopeSource } from '../auth/decorators';
import { ISSUE_REFERENCE_PARAM } from '../http/issue-reference';
import { UuidParamPipe } from '../http/validation';
import { API_ERRORS, type DeclaredErrors } from './decorators';

/** What the document builder needs to know about one route handler, read from its Nest metadata. */
export interface RouteFacts {
  /** Path parameters that only UUIDs pass: `UuidParamPipe`, and the organization scope's key (the guard 404s anything else). */
  uuidParams: Set<string>;
  /** Path parameters the handler reads without the UUID pipe (free strings, references). */
  otherParams: Set<string>;
  /** The path parameter that takes any issue reference form (`@IssueAddressed`; resolved to the UUID before the pipes). */
  referenceParams: Set<string>;
  /** Query parameters that only UUIDs pass (an organization scope named by the query). */
  uuidQueries: Set<string>;
  /** Error statuses declared with `@ApiErrors` (class and method, the method's wins). */
  errors: DeclaredErrors;
}

type Class = abstract new (...args: never[]) => unknown;

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

const isUuidPipe = (p: unknown) => p === UuidParamPipe || p instanceof UuidParamPipe;

/** Route facts by operationId (`<Controller name without "Controller">_<method>`, as openapi.ts names operations). */
export function routeFacts(app: INestApplication): Map<string, RouteFacts> {
  const out = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (Class & { name: string }) | null;
      if (!type) continue;
      const proto = type.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const handler = proto[method];
        if (method === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const facts: RouteFacts = { uuidParams: new Set(), otherParams: new Set(), referenceParams: new Set(), uuidQueries: new Set(), errors: {} };
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, method) ?? {}) as Record<string, RouteArg>;
        for (const [key, arg] of Object.entries(args)) {
          if (Number(key.split(':')[0]) !== (RouteParamtypes.PARAM as number) || typeof arg.data !== 'string') continue;
          (arg.pipes?.some(isUuidPipe) ? facts.uuidParams : facts.otherParams).add(arg.data);
        }
        const scope = (Reflect.getMetadata(ORG_SCOPE, handler) ?? Reflect.getMetadata(ORG_SCOPE, type)) as OrgScopeSource | undefined;
        if (scope) (scope.from === 'param' ? facts.uuidParams : facts.uuidQueries).add(scope.key);
        const reference = (Reflect.getMetadata(ISSUE_REFERENCE_PARAM, handler) ?? Reflect.getMetadata(ISSUE_REFERENCE_PARAM, type)) as string | undefined;
        if (reference) {
          facts.referenceParams.add(reference);
          facts.uuidParams.delete(reference);
        }
        facts.errors = {
          ...((Reflect.getMetadata(API_ERRORS, type) ?? {}) as DeclaredErrors),
          ...((Reflect.getMetadata(API_ERRORS, handler) ?? {}) as DeclaredErrors),
        };
        out.set(operationId(type.name, method), facts);
      }
    }
  }
  return out;
}

/** The operationId of a controller method (also given to SwaggerModule as its operationIdFactory). */
export const operationId = (controller: string, method: string) => `${controller.replace(/Controller$/, '')}_${method}`;
