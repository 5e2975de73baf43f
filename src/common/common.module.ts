import { Global, Module } from '@nestjs/common';
import { Sql } from '../database/sql.service';
import { TxRunner } from '../database/tx-runner';
import { AccessPolicyService } from './access/access-policy.service';
import { AccessRepository } from './access/access.repository';
import { DataVersions } from './cache/data-versions.service';
import { DataVersionsRepository } from './cache/data-versions.repository';
import { ReadModels } from './cache/read-models';
import { DomainEvents } from './events/domain-events';
import { AuthRepository } from './auth/auth.repository';
import { AuthService } from './auth/auth.service';
import { OAuthBearers } from './auth/oauth-bearer';
import { ApiKeyStrategy, SessionStrategy } from './auth/strategies';
import { PlanRepository } from './plan/plan.repository';
import { PlanService } from './plan/plan.service';
import { RequestSteps } from './http/request-steps';
import { RateLimitService } from './rate-limit/rate-limit.service';
import { RedisService } from './redis/redis.provider';

/** Cross-cutting services every module may inject. */
const SHARED = [
  Sql,
  TxRunner,
  DataVersions,
  ReadModels,
  DomainEvents,
  AccessRepository,
  AuthRepository,
  PlanRepository,
  AccessPolicyService,
  AuthService,
  OAuthBearers,
  PlanService,
  RateLimitService,
  RedisService,
  RequestSteps,
];

@Global()
@Module({
  providers: [...SHARED, DataVersionsRepository, ApiKeyStrategy, SessionStrategy],
  exports: SHARED,
})
export class CommonModule {}
