import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { IssueReferenceResolver } from '../../issue-reference.resolver';
import { IssueReader } from '../../issue.reader';
import type { IssueDetailEnvelope } from '../../issues.response';
import { GetIssueQuery } from './get-issue.query';

export const DETAIL_INCLUDES = ['artifact_manifest'] as const;

/** `include`: absent, or a comma-separated list of known projections (unknown or duplicate: 400). */
export function parseInclude(v: unknown): Set<string> {
  if (v === undefined || v === '') return new Set();
  if (typeof v !== 'string') throw Errors.validation('include must be given once');
  // one more part than there are projections is already an unknown or a repeated one: read no further
  const parts = v.split(',', DETAIL_INCLUDES.length + 1).map((s) => s.trim());
  const out = new Set<string>();
  for (const p of parts) {
    if (!(DETAIL_INCLUDES as readonly string[]).includes(p))
      throw Errors.validation(`Unknown include ${JSON.stringify(p.slice(0, 50))}; accepted: ${DETAIL_INCLUDES.join(', ')}`);
    if (out.has(p)) throw Errors.validation(`include ${p} is given twice`);
    out.add(p);
  }
  return out;
}

/** Issue detail by any reference form; the caller must be able to read it (404 concealed). */
@QueryHandler(GetIssueQuery)
export class GetIssueHandler implements IQueryHandler<GetIssueQuery> {
  constructor(
    private readonly resolver: IssueReferenceResolver,
    private readonly reader: IssueReader,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, reference, include }: GetIssueQuery): Promise<IssueDetailEnvelope> {
    const includes = parseInclude(include);
    // The caller's project access (cached for the request) is read beside the reference lookup
    // rather than after it; the resolver awaits the same promise (and reports its failure).
    this.access.projectAccess(actor).catch(() => undefined);
    const ref = await this.resolver.resolve(actor, reference);
    // The issue row and everything else the detail shows, in one statement.
    const loaded = await this.reader.loadDetail(actor.orgId, ref.id);
    if (!loaded) throw Errors.notFound('Issue not found');
    const { issue, extras } = loaded;
    const visible = await this.reader.readableSubtasks(extras, async (projectId) => !!(await this.access.issueLevel(actor, projectId)));
    // Artifacts are queried only when asked for; every artifact linked to a readable issue is readable.
    const manifest = includes.has('artifact_manifest') ? await this.reader.artifactManifest(actor.orgId, issue.id) : undefined;
    return { issue: this.reader.detailFrom(issue, visible, manifest) };
  }
}
