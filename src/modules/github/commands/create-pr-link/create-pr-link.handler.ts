import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { DomainError } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { prLinked, prUpdated } from '../../github-activity';
import { defaultTitle, GithubProvider, pullMetadata } from '../../github-provider.service';
import { prLinkResponse } from '../../github.mapper';
import type { PrLinkEnvelope } from '../../github.response';
import { type PrMetadata, PrLinksRepository } from '../../pr-links.repository';
import { parsePrUrl } from '../../pr-url';
import { CreatePrLinkCommand } from './create-pr-link.command';

export const invalidPrUrl = () =>
  new DomainError(400, 'invalid_pr_url', 'url must be a canonical GitHub pull-request URL: https://github.com/<owner>/<repo>/pull/<number>');

/** First retry of a missing provider identity (the worker backs off from there). */
const IDENTITY_RETRY_MS = 60_000;

/**
 * Attaches a pull request to an issue. Authorization first (edit on the issue's project; 404 when
 * unreadable, 403 when read-only), then the URL (canonical PR URLs only, 400), then the provider:
 * title, status, head and base, and the immutable numeric ids when GitHub answers. Whatever the
 * provider does (unknown PR, 5xx, time-out, garbage) the link is created (201) with what is known;
 * missing ids are reconciled later by the worker (GithubIdentitySweep). Linking the same PR again
 * answers the existing link. The link, the provider state applied to the other links of the PR
 * and their timeline entries (`github_pr.linked`, `github_pr.updated`) commit together.
 */
@CommandHandler(CreatePrLinkCommand)
export class CreatePrLinkHandler implements ICommandHandler<CreatePrLinkCommand, PrLinkEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly provider: GithubProvider,
    private readonly links: PrLinksRepository,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, issueId, url }: CreatePrLinkCommand): Promise<PrLinkEnvelope> {
    const issue = await this.access.assertIssueWrite(actor, issueId);
    const ref = parsePrUrl(url);
    if (!ref) throw invalidPrUrl();
    const existing = await this.links.find(actor.orgId, issue.id, ref.owner, ref.repo, ref.number);
    if (existing) return { pr_link: prLinkResponse(existing) };
    const pr = await this.provider.pull(actor.orgId, ref);
    const md: PrMetadata = pr.ok
      ? pullMetadata(pr.data, ref)
      : {
          pr_id: null,
          github_repository_id: null,
          pr_url: ref.url,
          pr_title: defaultTitle(ref),
          pr_status: 'unknown',
          head_sha: null,
          base_ref: null,
          base_sha: null,
        };
    const now = this.clock.now();
    const complete = md.pr_id !== null && md.github_repository_id !== null;
    const row = await this.db.transaction(async (m) => {
      const inserted = await this.links.insert(
        {
          org_id: actor.orgId,
          id: randomUUID(),
          issue_id: issue.id,
          owner: ref.owner,
          repo: ref.repo,
          pr_number: ref.number,
          created_by_member_id: actor.memberId,
          ...md,
        },
        now,
        complete ? null : new Date(now.getTime() + IDENTITY_RETRY_MS),
        m,
      );
      if (!inserted) return undefined;
      // fresh provider state applies to the other links of the same PR too
      const changes = pr.ok ? await this.links.applyMetadata(actor.orgId, ref.owner, ref.repo, ref.number, md, now, m) : [];
      await this.events.stage(m, prLinked(actor, issue, inserted), ...prUpdated(actor.orgId, changes));
      return inserted;
    });
    const link = row ?? (await this.links.find(actor.orgId, issue.id, ref.owner, ref.repo, ref.number));
    return { pr_link: prLinkResponse(link!) };
  }
}
