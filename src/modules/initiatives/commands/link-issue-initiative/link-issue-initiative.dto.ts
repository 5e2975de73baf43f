import { Alias } from '../../../../common/http/aliases';

export class IssueInitiativeLinkDto {
  /** Initiative UUID */
  @Alias('initiativeId') initiative_id: string;
}
