import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Tx } from '../../../../database/sql.service';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { OrganizationsRepository } from '../../../organizations/organizations.repository';
import { BoardRepository } from '../../board.repository';
import { CustomViewsRepository } from '../../custom-views.repository';
import type { BoardColumnEntity } from '../../entities/board-column.entity';
import type { BoardViewEntity } from '../../entities/board-view.entity';
import type { ProjectEntity } from '../../entities/project.entity';
import { ProjectsRepository } from '../../projects.repository';
import { DEFAULT_BOARD_VIEW_NAME, DEFAULT_COLUMNS, DEFAULT_CUSTOM_VIEWS, deriveKeyBase, RESERVED_PROJECT_KEYS, uniqueKey } from '../../project.rules';
import { firstFreeSlug, slugify } from '../../../../common/naming/slug';
import { toProjectResponse } from '../../projects.mapper';
import type { ProjectEnvelope } from '../../projects.response';
import { CreateProjectCommand } from './create-project.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Creates a project with its defaults in one transaction: the four board columns, the Default
 * board view holding them and the three default custom views. Any failure leaves nothing behind.
 */
@CommandHandler(CreateProjectCommand)
export class CreateProjectHandler implements ICommandHandler<CreateProjectCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
    private readonly projects: ProjectsRepository,
    private readonly board: BoardRepository,
    private readonly customViews: CustomViewsRepository,
    private readonly organizations: OrganizationsRepository,
  ) {}

  async execute({ actor, dto }: CreateProjectCommand): Promise<ProjectEnvelope> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can create projects');
    const project = await this.tx.run(async (m) => {
      // Concurrent creations in one organization run one after another (keys, slugs, plan limit).
      await this.projects.lockCreations(actor.orgId, m);
      await this.plans.assertCanAdd(m, actor.orgId, 'activeProjects');
      const key = await this.chooseKey(m, actor.orgId, dto.name, dto.key ?? undefined);
      const slug = await this.chooseSlug(m, actor.orgId, dto.name);
      const now = new Date();
      const p: ProjectEntity = {
        orgId: actor.orgId,
        id: randomUUID(),
        name: dto.name,
        key,
        slug,
        description: dto.description ?? null,
        color: dto.color ?? null,
        icon: dto.icon ?? null,
        status: 'active',
        issueSeq: 0,
        createdByMemberId: actor.memberId,
        createdAt: now,
        updatedAt: now,
      };
      await this.projects.insert(p, m);
      await this.createDefaults(m, p, actor.memberId, now);
      return p;
    });
    return { project: toProjectResponse(project, (await this.access.levelFor(actor, project.id)) ?? 'admin') };
  }

  private async chooseKey(m: Tx, orgId: string, name: string, explicit: string | undefined): Promise<string> {
    const prefix = await this.organizations.issuePrefix(orgId, m);
    const reserved = new Set([...RESERVED_PROJECT_KEYS, ...(prefix !== undefined ? [prefix] : [])]);
    const taken = await this.projects.keys(orgId, m);
    if (explicit !== undefined) {
      // An explicit key may equal the organization prefix (clients do this); only TSK is reserved.
      if (RESERVED_PROJECT_KEYS.includes(explicit)) {
        throw Errors.conflict(`Project key ${explicit} is reserved (TSK-<n> addresses issues of every project)`, 'project_key_reserved');
      }
      if (taken.has(explicit)) throw Errors.conflict(`Project key ${explicit} is already used by another project`, 'project_key_taken');
      return explicit;
    }
    return uniqueKey(deriveKeyBase(name), (k) => taken.has(k) || reserved.has(k));
  }

  private async chooseSlug(m: Tx, orgId: string, name: string): Promise<string> {
    const base = slugify(name, 'project');
    return firstFreeSlug(base, await this.projects.slugsLike(orgId, base, m));
  }

  private async createDefaults(m: Tx, p: ProjectEntity, memberId: string, now: Date): Promise<void> {
    const columns: BoardColumnEntity[] = DEFAULT_COLUMNS.map((c, position) => ({
      orgId: p.orgId,
      id: randomUUID(),
      projectId: p.id,
      key: c.key,
      label: c.label,
      description: null,
      color: null,
      position,
      recommendationRole: null,
      createdAt: now,
      updatedAt: now,
    }));
    await this.board.insertColumns(columns, m);
    const view: BoardViewEntity = {
      orgId: p.orgId,
      id: randomUUID(),
      projectId: p.id,
      name: DEFAULT_BOARD_VIEW_NAME,
      isDefault: true,
      createdAt: now,
      updatedAt: now,
    };
    await this.board.insertView(view, m);
    await this.board.setViewColumns(
      p.orgId,
      view.id,
      columns.map((c) => c.id),
      m,
    );
    // One statement per view, in order (a millisecond apart, so lists keep this order); a failure
    // on any of them aborts the whole creation.
    for (const [i, v] of DEFAULT_CUSTOM_VIEWS.entries()) {
      const at = new Date(now.getTime() + i);
      await this.customViews.insert(
        {
          orgId: p.orgId,
          id: randomUUID(),
          projectId: p.id,
          name: v.name,
          filters: { ...v.filters },
          sort: { ...v.sort },
          displayMode: v.displayMode,
          color: null,
          icon: null,
          isDefault: true,
          createdByMemberId: memberId,
          createdAt: at,
          updatedAt: at,
        },
        m,
      );
    }
  }
}
