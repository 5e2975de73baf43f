import type { Actor } from '../../common/auth/principal';
import { ArtifactChangedEvent, type DomainEvents, eventActorOf, IssueActivityEvent, snapshotOf } from '../../common/events/domain-events';
import type { Tx } from '../../database/sql.service';
import type { ArtifactRow, LinkRow, RevisionSummaryRow } from './artifacts.repository';

type Action = 'artifact.created' | 'artifact.revised' | 'artifact.linked' | 'artifact.unlinked';

/** Timeline entries `artifact.*` on each linked issue (metadata: ids, type, title, revision; never content). */
export async function stageArtifactActivity(
  events: DomainEvents,
  m: Tx,
  actor: Actor,
  action: Action,
  a: { id: string; type: string; title: string },
  issueLinks: Array<Pick<LinkRow, 'target_type' | 'target_id' | 'project_id'>>,
  revision?: { id: string; revision_number: number },
): Promise<void> {
  const metadata = {
    artifact_id: a.id,
    artifact_type: a.type,
    title: a.title,
    ...(revision ? { revision_id: revision.id, revision_number: revision.revision_number } : {}),
  };
  const staged = issueLinks
    .filter((l) => l.target_type === 'issue')
    .map((l) => new IssueActivityEvent(actor.orgId, l.target_id, l.project_id, actor.memberId, snapshotOf(actor), action, metadata));
  if (staged.length) await events.stage(m!, ...staged);
}

/** The domain event of a created or revised artifact (webhooks `artifact.created` / `artifact.revised`). */
export async function stageArtifactChanged(
  events: DomainEvents,
  m: Tx,
  actor: Actor,
  kind: 'created' | 'revised',
  a: Pick<ArtifactRow, 'id' | 'type' | 'title'> & { created_at: Date; updated_at: Date },
  r: RevisionSummaryRow,
  links: Array<Pick<LinkRow, 'target_type' | 'target_id'>>,
): Promise<void> {
  await events.stage(
    m!,
    new ArtifactChangedEvent(
      actor.orgId,
      kind,
      eventActorOf(actor),
      { id: a.id, type: a.type, title: a.title, created_at: new Date(a.created_at).toISOString(), updated_at: new Date(a.updated_at).toISOString() },
      {
        id: r.id,
        revision_number: r.revision_number,
        title_snapshot: r.title_snapshot,
        content_format: r.content_format,
        content_digest: r.content_digest,
        created_at: new Date(r.created_at).toISOString(),
      },
      links.map((l) => ({ target_type: l.target_type, target_id: l.target_id })),
    ),
  );
}
