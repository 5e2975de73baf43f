import { Alias } from '../../../../common/http/aliases';

export class AddIssueLabelDto {
  /** Label UUID of the same organization (404 otherwise) */
  @Alias('label_id') labelId?: string;
}
