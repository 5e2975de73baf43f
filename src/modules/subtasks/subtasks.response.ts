import { IssueRecordResponse } from '../issue-list/issue-list.response';

export class SubtaskEnvelope {
  /** The child issue (full issue record, `parent_id` = the parent) */
  subtask: IssueRecordResponse;
  /** Same record under the issue key */
  issue: IssueRecordResponse;
}
export class SubtaskListResponse {
  /** Readable children of the issue, oldest first (archived ones included, see `archived`) */
  subtasks: IssueRecordResponse[];
  total: number;
}
export class SubtaskDetachedResponse {
  success: boolean;
  /** The former subtask, now a top-level issue */
  subtask: IssueRecordResponse;
}
