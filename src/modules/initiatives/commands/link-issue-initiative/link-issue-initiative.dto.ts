import { Allow } from 'class-validator';

export class IssueInitiativeLinkDto {
  /** Initiative UUID */
  @Allow() initiative_id: string;
  /** Alias of initiative_id */
  @Allow() initiativeId?: string;
}
