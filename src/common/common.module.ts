import { Global, Module } from '@nestjs/common';
import { Sql } from '../database/sql.service';
import { AccessPolicyService } from './access/access-policy.service';
import { DataVersions } from './cache/data-versions.service';
import { DomainEvents } from './events/domain-events';
import { AuthService } from './auth/auth.service';
import { ApiKeyStrategy, SessionStrategy } from './auth/strategies';
import { PlanService } from './plan/plan.service';
import { RateLimitService } from './rate-limit/rate-limit.service';
import { RedisService } from './redis/redis.provider';

/** Cross-cutting services every module may inject. */
@Global()
@Module({
  providers: [Sql, DataVersions, DomainEvents, AccessPolicyService, AuthService, ApiKeyStrategy, SessionStrategy, PlanService, RateLimitService, RedisService],
  exports: [Sql, DataVersions, DomainEvents, AccessPolicyService, AuthService, PlanService, RateLimitService, RedisService],
})
export class CommonModule {}
