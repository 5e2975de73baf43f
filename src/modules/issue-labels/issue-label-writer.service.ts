import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IssuesRepository } from '../issues/issues.repository';
import { LabelsRepository } from '../labels/labels.repository';

/**
 * Linking a label to an issue inside the caller's transaction (the label route and automation's
 * `add_label` action). The caller checks issue write access and publishes `label.added` after
 * commit when `add` returned true.
 */
@Injectable()
export class IssueLabelWriter {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
  ) {}

  /** The organization's label, or null. */
  async findLabel(m: EntityManager, orgId: string, labelId: string): Promise<{ id: string; name: string } | null> {
    return (await this.labels.findRef(orgId, labelId.toLowerCase(), m)) ?? null;
  }

  /** Idempotent: false when the label was already on the issue (nothing changes). Bumps the issue's updated_at. */
  async add(m: EntityManager, orgId: string, issueId: string, labelId: string): Promise<boolean> {
    const added = await this.issues.linkLabel(orgId, issueId, labelId, m);
    if (added) await this.issues.touch(orgId, issueId, m);
    return added;
  }
}
