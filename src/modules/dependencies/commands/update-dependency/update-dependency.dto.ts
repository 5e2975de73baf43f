import { Allow } from 'class-validator';

/** `{ releaseColumnId }` or `{ release_column_id }`: a column of the blocking issue's project. */
export class UpdateDependencyDto {
  /** Column of the blocking issue's project at which the dependency is released */
  @Allow() releaseColumnId?: string;
  /** Alias of releaseColumnId */
  @Allow() release_column_id?: string;
}
