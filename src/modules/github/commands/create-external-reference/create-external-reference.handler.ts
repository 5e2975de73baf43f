import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, snapshotOf } from '../../../../common/events/domain-events';
import { referenceEntry } from '../../github-activity';
import { ExternalReferencesRepository } from '../../external-references.repository';
import { GithubProvider } from '../../github-provider.service';
import { referenceResponse } from '../../github.mapper';
import type { ExternalReferenceEnvelope } from '../../github.response';
import { parsePrUrl } from '../../pr-url';
import { ReferenceTargets } from '../../reference-targets.service';
import { invalidPrUrl } from '../create-pr-link/create-pr-link.handler';
import { CreateExternalReferenceCommand } from './create-external-reference.command';

export const identityUnavailable = () =>
  Errors.unprocessable(
    'GitHub did not prove the pull request: a connection and a live provider response with numeric repository and pull-request ids are needed',
    'github_identity_unavailable',
  );

/**
 * Links a GitHub pull request to an issue or project as an external reference. Authorization first
 * (edit/admin on the target), then the URL (400), then proof: the organization's connection must
 * read the PR live and the response must carry numeric `id` and `base.repo.id`; otherwise 422
 * `github_identity_unavailable` and nothing is stored. The URL's owner/repo are not identity: the
 * reference is keyed by the provider's ids. The reference, its link and the PR links of the same
 * PR (their `external_reference_id`) are written in one transaction, with their timeline entries:
 * `external_reference.linked` on the target for a new link, `external_reference.updated` on every
 * other link of the reference when what it shows (owner, repo, number, URL, title) changed.
 */
@CommandHandler(CreateExternalReferenceCommand)
export class CreateExternalReferenceHandler implements ICommandHandler<CreateExternalReferenceCommand, ExternalReferenceEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly targets: ReferenceTargets,
    private readonly provider: GithubProvider,
    private readonly refs: ExternalReferencesRepository,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, targetType, targetId, url }: CreateExternalReferenceCommand): Promise<ExternalReferenceEnvelope> {
    const target = await this.targets.write(actor, targetType, targetId);
    const ref = parsePrUrl(url);
    if (!ref) throw invalidPrUrl();
    const access = await this.provider.access(actor.orgId);
    if (!access) throw identityUnavailable();
    const pr = await this.provider.pull(actor.orgId, ref, access.token);
    if (!pr.ok) throw identityUnavailable();
    const prId = pr.data.id;
    const repoId = pr.data.base?.repo?.id;
    if (!Number.isSafeInteger(prId) || prId <= 0 || !Number.isSafeInteger(repoId) || (repoId as number) <= 0) throw identityUnavailable();
    const fullName = typeof pr.data.base?.repo?.full_name === 'string' ? pr.data.base.repo.full_name.split('/') : [];
    const [owner, repo] = fullName.length === 2 && fullName[0] && fullName[1] ? fullName : [ref.owner, ref.repo];
    const canonical = `https://github.com/${owner}/${repo}/pull/${pr.data.number}`;
    const label = typeof pr.data.title === 'string' && pr.data.title.trim() ? [...pr.data.title.trim()].slice(0, 240).join('') : null;
    const now = this.clock.now();
    const linkId = await this.db.transaction(async (m) => {
      const r = await this.refs.upsertReference(
        {
          org_id: actor.orgId,
          id: randomUUID(),
          repository_id: repoId as number,
          pr_id: prId,
          owner,
          repo,
          pr_number: pr.data.number,
          canonical_url: canonical,
          label,
        },
        now,
        m,
      );
      const link = await this.refs.link(actor.orgId, randomUUID(), r.id, targetType, target.id, actor.memberId, now, m);
      await this.refs.attachToPrLinks(actor.orgId, r.id, ref.owner, ref.repo, ref.number, m);
      if (link.created || r.changed) {
        const by = { memberId: actor.memberId, snapshot: snapshotOf(actor) };
        const entries: Array<ReturnType<typeof referenceEntry>> = [];
        for (const l of await this.refs.linksOfReference(actor.orgId, r.id, m)) {
          const at = { type: l.target_type, id: l.target_id, projectId: l.project_id };
          if (l.id === link.id && link.created) entries.push(referenceEntry(actor.orgId, at, 'external_reference.linked', l, by));
          else if (r.changed) entries.push(referenceEntry(actor.orgId, at, 'external_reference.updated', l, by));
        }
        await this.events.stage(m, ...entries);
      }
      return link.id;
    });
    const row = await this.refs.getFor(actor.orgId, targetType, targetId, linkId);
    if (!row) throw Errors.notFound('External reference not found');
    return { external_reference: referenceResponse(row) };
  }
}
