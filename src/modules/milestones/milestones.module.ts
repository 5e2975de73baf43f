import { Module } from '@nestjs/common';
import { StrategyModule } from '../strategy/strategy.module';
import { CreateMilestoneHandler } from './commands/create-milestone/create-milestone.handler';
import { DeleteMilestoneHandler } from './commands/delete-milestone/delete-milestone.handler';
import { UpdateMilestoneHandler } from './commands/update-milestone/update-milestone.handler';
import { MilestonesController } from './milestones.controller';
import { MilestonesRepository } from './milestones.repository';
import { GetMilestoneHandler } from './queries/get-milestone/get-milestone.handler';
import { ListMilestonesHandler } from './queries/list-milestones/list-milestones.handler';

/**
 * Milestones: dated goals inside one project.
 *
 * - Read (list, detail): project read; a milestone of an unreadable project, another
 *   organization or a non-UUID id is 404.
 * - Create and update: `edit` on the project (403 view-only).
 * - Delete: organization owners and admins only (403 otherwise, checked before the lookup);
 *   issues of the milestone stay, with milestone_id cleared.
 * - Fields: name 1..200 (trimmed), unique per project case-insensitively (409
 *   `milestone_name_taken`); description ≤ 20000 (blank = null); target_date YYYY-MM-DD real
 *   calendar date (aliases targetDate, due_date, dueDate); status planned|active|completed|cancelled.
 * - `issue_count` counts the milestone's non-archived issues.
 */
@Module({
  imports: [StrategyModule],
  controllers: [MilestonesController],
  providers: [MilestonesRepository, CreateMilestoneHandler, UpdateMilestoneHandler, DeleteMilestoneHandler, ListMilestonesHandler, GetMilestoneHandler],
  exports: [MilestonesRepository],
})
export class MilestonesModule {}
