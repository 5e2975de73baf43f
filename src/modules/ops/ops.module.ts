import { Module } from '@nestjs/common';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsService } from './metrics.service';
import { OpsController } from './ops.controller';
import { OpsRepository } from './ops.repository';

/** Operations: health, Prometheus metrics (behind METRICS_TOKEN). */
@Module({ controllers: [OpsController], providers: [MetricsService, MetricsAccessGuard, OpsRepository], exports: [MetricsService] })
export class OpsModule {}
