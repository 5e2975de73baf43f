import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { CreateOrganizationHandler } from './commands/create-organization/create-organization.handler';
import { DeleteOrganizationHandler } from './commands/delete-organization/delete-organization.handler';
import { UpdateOrganizationHandler } from './commands/update-organization/update-organization.handler';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from './organizations.repository';
import { GetBillingHandler } from './queries/get-billing/get-billing.handler';
import { GetOrganizationHandler } from './queries/get-organization/get-organization.handler';
import { ListOrganizationsHandler } from './queries/list-organizations/list-organizations.handler';

/** Organizations (tenants) and their plan. */
@Module({
  imports: [MembersModule],
  controllers: [OrganizationsController],
  providers: [
    OrganizationsRepository,
    CreateOrganizationHandler,
    UpdateOrganizationHandler,
    DeleteOrganizationHandler,
    ListOrganizationsHandler,
    GetOrganizationHandler,
    GetBillingHandler,
  ],
  exports: [OrganizationsRepository],
})
export class OrganizationsModule {}
