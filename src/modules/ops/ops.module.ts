import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';
import { OpsController } from './ops.controller';

/** Operations: health, Prometheus metrics. */
@Module({ controllers: [OpsController], providers: [MetricsService], exports: [MetricsService] })
export class OpsModule {}
