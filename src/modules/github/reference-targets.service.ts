import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import type { TargetType } from './external-references.repository';

/** Access to the target of an external reference: an issue by its project (projectless: non-guests), a project by its level. */
@Injectable()
export class ReferenceTargets {
  constructor(private readonly access: AccessPolicyService) {}

  async read(actor: Actor, type: TargetType, id: string): Promise<void> {
    if (type === 'issue') await this.access.assertIssueRead(actor, id);
    else {
      if (!isUuid(id)) throw Errors.notFound('Project not found');
      await this.access.assertProjectRead(actor, id);
    }
  }

  /** Edit/admin on the target (404 unreadable, 403 read-only); answers the target's project (an issue's current one, or the project). */
  async write(actor: Actor, type: TargetType, id: string): Promise<{ type: TargetType; id: string; projectId: string | null }> {
    if (type === 'issue') {
      const issue = await this.access.assertIssueWrite(actor, id);
      return { type, id: issue.id, projectId: issue.projectId };
    }
    if (!isUuid(id)) throw Errors.notFound('Project not found');
    await this.access.assertProjectWrite(actor, id);
    return { type, id, projectId: id };
  }

  /** Whether the caller can read the target (artifact source provenance). */
  async canRead(actor: Actor, type: string, id: string): Promise<boolean> {
    try {
      await this.read(actor, type === 'project' ? 'project' : 'issue', id);
      return true;
    } catch {
      return false;
    }
  }
}
