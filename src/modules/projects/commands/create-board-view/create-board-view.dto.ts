import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { Trim } from '../../projects.validation';

export class CreateBoardViewDto {
  /** View name (1..100 characters) */
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name: string;

  /** Columns of this project to show, in display order (non-empty, no duplicates) */
  @IsOptional()
  @IsArray({ message: 'columnIds must be an array of column ids' })
  @ArrayNotEmpty({ message: 'columnIds must not be empty' })
  @ArrayMaxSize(200)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'columnIds must not contain duplicates' })
  @IsUUID('all', { each: true, message: 'columnIds must contain column UUIDs' })
  columnIds?: string[];

  /** Alias of columnIds */
  @IsOptional()
  @IsArray({ message: 'column_ids must be an array of column ids' })
  @ArrayNotEmpty({ message: 'column_ids must not be empty' })
  @ArrayMaxSize(200)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'column_ids must not contain duplicates' })
  @IsUUID('all', { each: true, message: 'column_ids must contain column UUIDs' })
  column_ids?: string[];
}
