import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';
import { OpsController } from './ops.controller';
import { OpsRepository } from './ops.repository';

/** Operations: health, Prometheus metrics. */
@Module({ controllers: [OpsController], providers: [MetricsService, OpsRepository], exports: [MetricsService] })
export class OpsModule {}
