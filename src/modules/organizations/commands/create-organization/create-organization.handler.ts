import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { MembersRepository } from '../../../members/members.repository';
import type { OrganizationEntity } from '../../entities/organization.entity';
import { derivePrefix, toOrganizationResponse } from '../../organization.mapper';
import { OrganizationsRepository } from '../../organizations.repository';
import type { OrganizationResponse } from '../../organizations.response';
import { CreateOrganizationCommand } from './create-organization.command';
import { TxRunner } from '../../../../database/tx-runner';

/** The creator becomes the owner; the plan is SERVICE_DEFAULT_PLAN. One transaction. */
@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand, OrganizationResponse> {
  constructor(
    private readonly tx: TxRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly organizations: OrganizationsRepository,
    private readonly members: MembersRepository,
  ) {}

  async execute(cmd: CreateOrganizationCommand): Promise<OrganizationResponse> {
    const now = new Date();
    const org: OrganizationEntity = {
      id: randomUUID(),
      name: cmd.name,
      issuePrefix: cmd.issuePrefix ?? derivePrefix(cmd.name),
      plan: this.config.defaultPlan,
      issueSeq: 0,
      createdAt: now,
      updatedAt: now,
    };
    await this.tx.run(async (m) => {
      await this.organizations.insert(org, m);
      await this.members.insertHuman(
        { orgId: org.id, id: randomUUID(), userId: cmd.principal.userId, role: 'owner', displayName: cmd.principal.displayName, createdByMemberId: null, now },
        m,
      );
    });
    return toOrganizationResponse(org, 'owner');
  }
}
