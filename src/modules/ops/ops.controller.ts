import { Controller, Get, Header, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/decorators';
import { RedisService } from '../../common/redis/redis.provider';
import { HealthResponse } from './ops.response';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsService } from './metrics.service';
import { OpsRepository } from './ops.repository';

@ApiTags('operations')
@Controller()
export class OpsController {
  constructor(
    private readonly ops: OpsRepository,
    private readonly redis: RedisService,
    private readonly metrics: MetricsService,
  ) {}

  @Public()
  @Get('health')
  @ApiOperation({ summary: 'Liveness and readiness: the database and Redis answer' })
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ type: HealthResponse })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const [database, redis] = await Promise.all([
      this.ops.ping().then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
      this.redis.ping().then((ok) => (ok ? ('ok' as const) : ('down' as const))),
    ]);
    const ok = database === 'ok' && redis === 'ok';
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'degraded', database, redis };
  }

  /** Public to the global guard; MetricsAccessGuard asks for METRICS_TOKEN (or hides the route in production). */
  @Public()
  @UseGuards(MetricsAccessGuard)
  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
