import { Alias } from '../../../../common/http/aliases';

/** `{ releaseColumnId }` or `{ release_column_id }`: a column of the blocking issue's project. */
export class UpdateDependencyDto {
  /** Column of the blocking issue's project at which the dependency is released */
  @Alias('release_column_id') releaseColumnId?: string;
}
