import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, eventActorOf, ProjectActivityEvent, ProjectStatusUpdatedEvent, snapshotOf } from '../../../../common/events/domain-events';
import { isUuid } from '../../../../common/http/validation';
import { TxRunner } from '../../../../database/tx-runner';
import { cleanCommentBody } from '../../../comments/comment-body';
import { toStatusUpdateResponse } from '../../project-status.mapper';
import { PROJECT_STATUSES, type ProjectStatus, ProjectStatusRepository } from '../../project-status.repository';
import type { StatusUpdateResponse } from '../../project-status.response';
import { CreateStatusUpdateCommand } from './create-status-update.command';

export const SUMMARY_MAX = 10_000;

/**
 * Posts a status update (edit or admin access to the project; view-only 403, unreadable 404). In
 * one transaction, serialized per project: the row, the project's timeline entry
 * (`project.status_updated`, with the previous status) and the webhook outbox rows.
 */
@CommandHandler(CreateStatusUpdateCommand)
export class CreateStatusUpdateHandler implements ICommandHandler<CreateStatusUpdateCommand, StatusUpdateResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly updates: ProjectStatusRepository,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, projectId, body }: CreateStatusUpdateCommand): Promise<StatusUpdateResponse> {
    if (!isUuid(projectId)) throw Errors.notFound('Project not found');
    await this.access.assertProjectWrite(actor, projectId);
    const status = body.status;
    if (typeof status !== 'string' || !(PROJECT_STATUSES as readonly string[]).includes(status)) {
      throw Errors.validation(`status must be one of: ${PROJECT_STATUSES.join(', ')}`);
    }
    if (typeof body.summary === 'string' && body.summary.length > SUMMARY_MAX) throw Errors.validation(`summary must be at most ${SUMMARY_MAX} characters`);
    const summary = cleanCommentBody(body.summary, 'summary');
    if (summary.length > SUMMARY_MAX) throw Errors.validation(`summary must be at most ${SUMMARY_MAX} characters once sanitized`);
    return this.tx.run(async (m) => {
      const project = await this.updates.lockProject(actor.orgId, projectId, m);
      if (!project) throw Errors.notFound('Project not found');
      const row = {
        id: randomUUID(),
        project_id: projectId,
        status: status as ProjectStatus,
        summary,
        author_member_id: actor.isAutomation ? null : actor.memberId,
        created_at: new Date(),
      };
      await this.updates.insert(actor.orgId, row, m);
      await this.events.stage(
        m,
        new ProjectActivityEvent(actor.orgId, projectId, row.author_member_id, snapshotOf(actor), 'project.status_updated', {
          status_update_id: row.id,
          status: row.status,
          previous_status: project.latest,
        }),
        new ProjectStatusUpdatedEvent(
          actor.orgId,
          eventActorOf(actor),
          { id: projectId, key: project.key, name: project.name },
          {
            id: row.id,
            status: row.status,
            previous_status: project.latest,
            created_at: row.created_at.toISOString(),
          },
        ),
      );
      return toStatusUpdateResponse({
        ...row,
        author_display_name: actor.isAutomation ? null : actor.displayName,
        author_type: actor.memberType === 'agent' ? 'agent' : actor.isAutomation ? null : 'human',
      });
    });
  }
}
