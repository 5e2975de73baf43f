import { Module } from '@nestjs/common';
import { DependenciesModule } from '../dependencies/dependencies.module';
import { StrategyHealthRepository } from './strategy-health.repository';

/**
 * Strategy health, defined once: the pure rules (strategy-health.ts: stale, off pace, stalled,
 * overdue, blocked, target states, with their named thresholds) and the SQL that loads the rows
 * they judge (StrategyHealthRepository). The strategy audit uses both; the heartbeat is meant to.
 */
@Module({
  imports: [DependenciesModule],
  providers: [StrategyHealthRepository],
  exports: [StrategyHealthRepository],
})
export class StrategyHealthModule {}
