import { PickType } from '@nestjs/swagger';
import { UpdateIssueDto } from '../../../issues/issues.public';

/** The child fields a subtask PATCH changes (validated as PATCH /issues/{id}). */
export class UpdateSubtaskDto extends PickType(UpdateIssueDto, [
  'title',
  'description',
  'status',
  'priority',
  'assigneeId',
  'assigneeIds',
  'startDate',
  'dueDate',
] as const) {}
