import { Module } from '@nestjs/common';
import { DependenciesModule } from '../dependencies/dependencies.module';
import { ExecutionsModule } from '../executions/executions.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ClaimLeaseHandler } from './commands/claim-lease/claim-lease.handler';
import { DeleteRunnerSelfHandler } from './commands/delete-runner-self/delete-runner-self.handler';
import { PutRunnerSelfHandler } from './commands/put-runner-self/put-runner-self.handler';
import { SetRunnerIntakeHandler } from './commands/set-runner-intake/set-runner-intake.handler';
import { UpdateLeaseHandler } from './commands/update-lease/update-lease.handler';
import { LeasesRepository } from './leases.repository';
import { GetRunnerSelfHandler } from './queries/get-runner-self/get-runner-self.handler';
import { ListRunnersHandler } from './queries/list-runners/list-runners.handler';
import { RunnerVisibility } from './runner-visibility.service';
import { RunnersController } from './runners.controller';
import { RunnersRepository } from './runners.repository';

/**
 * Local runners: presence and intake of each agent's runner installation, and fenced leases on
 * issues (rules in runner-rules.ts; the database enforces one live lease per issue, unique
 * generations, sequence steps of one and closed leases staying closed). Each ordinary lease links
 * an execution (`harness_kind: service_local_runner`, `external_run_id` = lease id). Expired leases
 * are closed by the worker sweep (RunnersWorkerModule) and on every claim of the issue.
 */
@Module({
  imports: [ExecutionsModule, DependenciesModule, NotificationsModule],
  controllers: [RunnersController],
  providers: [
    RunnersRepository,
    LeasesRepository,
    RunnerVisibility,
    PutRunnerSelfHandler,
    DeleteRunnerSelfHandler,
    SetRunnerIntakeHandler,
    ClaimLeaseHandler,
    UpdateLeaseHandler,
    GetRunnerSelfHandler,
    ListRunnersHandler,
  ],
})
export class RunnersModule {}
