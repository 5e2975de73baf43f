import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { Present, Trim } from '../../projects.validation';

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
  @IsArray({ message: 'columnIds must be an array of column ids' })
  @ArrayNotEmpty({ message: 'columnIds must not be empty' })
  @ArrayMaxSize(200)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'columnIds must not contain duplicates' })
  @IsUUID('all', { each: true, message: 'columnIds must contain column UUIDs' })
  columnIds?: string[];

  /** Alias of columnIds */
  @Present()
  @IsArray({ message: 'column_ids must be an array of column ids' })
  @ArrayNotEmpty({ message: 'column_ids must not be empty' })
  @ArrayMaxSize(200)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: 'column_ids must not contain duplicates' })
  @IsUUID('all', { each: true, message: 'column_ids must contain column UUIDs' })
  column_ids?: string[];
}
