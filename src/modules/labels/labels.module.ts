import { Module } from '@nestjs/common';
import { CreateLabelHandler } from './commands/create-label/create-label.handler';
import { DeleteLabelHandler } from './commands/delete-label/delete-label.handler';
import { UpdateLabelHandler } from './commands/update-label/update-label.handler';
import { LabelsController } from './labels.controller';
import { LabelsRepository } from './labels.repository';
import { GetLabelHandler } from './queries/get-label/get-label.handler';
import { ListLabelsHandler } from './queries/list-labels/list-labels.handler';

/**
 * Labels: the organization's shared vocabulary for tagging issues.
 *
 * Access (decided by AccessPolicyService):
 * - Read (list, detail): every member of the organization, guests and project-scoped agents
 *   included: a guest who can see an issue must be able to resolve its labels.
 * - Create: every non-guest member (humans and agents with role member or above); guests 403.
 *   Adding a term to the vocabulary is harmless and frequent.
 * - Update and delete: owners and admins only (403 for members and guests), because renaming or
 *   deleting a label changes issues in projects the caller may not be able to write.
 * The role check comes before the lookup, so a 403 never depends on whether the label exists.
 *
 * Validation: name 1..100 characters after trimming, unique per organization case-insensitively
 * (409 `label_name_taken`); color `#rrggbb` (stored lowercase) or null; description at most 5000
 * characters (blank = null). Non-UUID or other organizations' label ids are 404.
 */
@Module({
  controllers: [LabelsController],
  providers: [LabelsRepository, CreateLabelHandler, UpdateLabelHandler, DeleteLabelHandler, ListLabelsHandler, GetLabelHandler],
  exports: [LabelsRepository],
})
export class LabelsModule {}
