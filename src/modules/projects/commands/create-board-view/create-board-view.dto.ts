import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ColumnIdList, Trim } from '../../projects.validation';
import { Alias } from '../../../../common/http/aliases';

export class CreateBoardViewDto {
  /** View name (1..100 characters) */
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name: string;

  /** Columns of this project to show, in display order (non-empty, no duplicates) */
  @IsOptional()
  @ColumnIdList('columnIds')
  @Alias('column_ids')
  columnIds?: string[];
}
