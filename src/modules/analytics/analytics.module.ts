import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsRepository } from './analytics.repository';
import { GetAnalyticsHandler } from './queries/get-analytics/get-analytics.handler';

/**
 * Work analytics (GET /analytics): set-based aggregates over issues and the status moves of their
 * timeline, within the caller's access. See AnalyticsRepository for the definitions.
 */
@Module({
  imports: [TeamsModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsRepository, GetAnalyticsHandler],
})
export class AnalyticsModule {}
