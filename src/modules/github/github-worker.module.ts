import { Module } from '@nestjs/common';
import { GithubIdentitySweep } from './github-identity.sweep';
import { GithubCoreModule } from './github.module';

/** Worker side of the GitHub integration: the identity reconciliation sweep of pull-request links. */
@Module({
  imports: [GithubCoreModule],
  providers: [GithubIdentitySweep],
  exports: [GithubIdentitySweep],
})
export class GithubWorkerModule {}
