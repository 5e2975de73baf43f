import { AliasesIn } from '../../../../common/http/aliases';
import { CreateIssueDto } from '../create-issue/create-issue.dto';

export class BulkCreateIssuesDto {
  /** 1..50 issues with the create fields; all are created or none */
  @AliasesIn(() => CreateIssueDto) issues: CreateIssueDto[];
}
