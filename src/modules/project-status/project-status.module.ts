import { Module } from '@nestjs/common';
import { CreateStatusUpdateHandler } from './commands/create-status-update/create-status-update.handler';
import { ProjectStatusController } from './project-status.controller';
import { ProjectStatusRepository } from './project-status.repository';
import { ListStatusUpdatesHandler } from './queries/list-status-updates/list-status-updates.handler';
import { ProjectHealthHandler } from './queries/project-health/project-health.handler';

/**
 * Project status updates (`on_track`, `at_risk`, `off_track` with a summary) and project health.
 *
 * Access: reading a project's updates needs any access to the project, posting needs edit or
 * admin (view-only 403, unreadable 404); project health lists only readable projects. An update
 * is immutable; it goes with its project. Posting one is a project-level timeline entry in the
 * organization feed, a `project.status_updated` webhook event and, while the latest status is
 * `off_track`, a heartbeat signal for agents working in the project (ProjectStatusRepository.offTrack).
 */
@Module({
  controllers: [ProjectStatusController],
  providers: [ProjectStatusRepository, CreateStatusUpdateHandler, ListStatusUpdatesHandler, ProjectHealthHandler],
  exports: [ProjectStatusRepository],
})
export class ProjectStatusModule {}
