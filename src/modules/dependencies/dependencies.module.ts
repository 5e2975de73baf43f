import { Module } from '@nestjs/common';
import { ChainCursorCodec } from './chain-cursor';
import { AddDependencyHandler } from './commands/add-dependency/add-dependency.handler';
import { RemoveDependencyHandler } from './commands/remove-dependency/remove-dependency.handler';
import { UpdateDependencyHandler } from './commands/update-dependency/update-dependency.handler';
import { DependenciesController } from './dependencies.controller';
import { DependenciesRepository } from './dependencies.repository';
import { DependencyRules } from './dependency-rules.service';
import { DependencyChainHandler } from './queries/dependency-chain/dependency-chain.handler';
import { ListDependenciesHandler } from './queries/list-dependencies/list-dependencies.handler';

/**
 * Dependencies between issues: "A blocks B until A reaches the release column".
 *
 * Access (AccessPolicyService): reads need read access to the issue (404 otherwise); the other
 * issue of an entry is `null` when unreadable (never its id or title). Writes need edit on the
 * issue in the path (403) and read access to the other issue (404).
 *
 * Rules: exactly one of blockedByIssueId / blockingIssueId; the blocking issue must be in a project;
 * the release column is a column of the blocking issue's project (default: `done`, else the last
 * column); self-dependencies and cycles are 400 (checked under a per-organization advisory lock);
 * duplicates 409. "Satisfied" is defined once, in DependencyRules (exported for the issue list,
 * `isBlocked` and project moves).
 */
@Module({
  controllers: [DependenciesController],
  providers: [
    DependenciesRepository,
    DependencyRules,
    ChainCursorCodec,
    AddDependencyHandler,
    UpdateDependencyHandler,
    RemoveDependencyHandler,
    ListDependenciesHandler,
    DependencyChainHandler,
  ],
  exports: [DependencyRules, DependenciesRepository],
})
export class DependenciesModule {}
