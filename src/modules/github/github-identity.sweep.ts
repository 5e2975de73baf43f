import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { DomainEvents } from '../../common/events/domain-events';
import { prUpdated } from './github-activity';
import { GithubProvider, pullMetadata } from './github-provider.service';
import { PrLinksRepository } from './pr-links.repository';

/**
 * Worker sweep: every minute, pull-request links whose immutable provider identity (`pr_id`,
 * `github_repository_id`) is still missing and due are read from GitHub again (bounded batch,
 * SKIP LOCKED; the attempt is counted before the read, with exponential back-off: 5, 10, 20, …
 * minutes, ten attempts at most). A provider that fails or times out leaves the link for the next
 * attempt; nothing it answers is logged. A title, state or head that changed gets its
 * `github_pr.updated` timeline entries in the same transaction.
 */
@Injectable()
export class GithubIdentitySweep {
  private readonly logger = new Logger(GithubIdentitySweep.name);

  constructor(
    private readonly db: DataSource,
    private readonly events: DomainEvents,
    private readonly links: PrLinksRepository,
    private readonly provider: GithubProvider,
    private readonly clock: Clock,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async sweep(limit = 50): Promise<number> {
    const due = await this.links.claimUnreconciled(this.clock.now(), limit);
    let done = 0;
    for (const l of due) {
      const ref = { owner: l.owner, repo: l.repo, number: l.pr_number, url: `https://github.com/${l.owner}/${l.repo}/pull/${l.pr_number}` };
      const pr = await this.provider.pull(l.org_id, ref);
      if (!pr.ok) continue;
      const md = pullMetadata(pr.data, ref);
      await this.db.transaction(async (m) => {
        const changes = await this.links.applyMetadata(l.org_id, l.owner, l.repo, l.pr_number, md, this.clock.now(), m);
        await this.events.stage(m, ...prUpdated(l.org_id, changes));
      });
      if (md.pr_id !== null) done++;
    }
    if (due.length) this.logger.log(`GitHub identity: ${done} of ${due.length} pull-request links reconciled`);
    return done;
  }
}
