import { CreateIssueDto } from '../../../issues/issues.public';
import { Alias } from '../../../../common/http/aliases';

/**
 * Either the fields of a new child issue (as POST /issues; it is created in the parent's project,
 * so `projectId` may only repeat the parent's), or `issueId` to attach an existing issue of the
 * same project as a subtask.
 */
export class CreateSubtaskDto extends CreateIssueDto {
  /** Existing issue (UUID) to attach under the parent instead of creating one */
  @Alias('issue_id') issueId?: string;
}
