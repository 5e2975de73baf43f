import { Allow } from 'class-validator';
import type { CreateIssueDto } from '../create-issue/create-issue.dto';

export class BulkCreateIssuesDto {
  /** 1..50 issues with the create fields; all are created or none */
  @Allow() issues: CreateIssueDto[];
}
