import { Allow } from 'class-validator';

export class AddIssueLabelDto {
  /** Label UUID of the same organization (404 otherwise) */
  @Allow() labelId?: string;
  /** Alias of labelId */
  @Allow() label_id?: string;
}
