import { IsString, MaxLength, MinLength } from 'class-validator';
import { ColumnIdList, Present, Trim } from '../../projects.validation';
import { Alias } from '../../../../common/http/aliases';

export class UpdateBoardViewDto {
  /** New name (1..100 characters) */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name?: string;

  /** Replaces the columns shown, in display order (non-empty array of this project's column ids) */
  @Present()
  @ColumnIdList('columnIds')
  @Alias('column_ids')
  columnIds?: string[];
}
