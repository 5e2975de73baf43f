import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsUUID, Min, ValidateNested } from 'class-validator';

export class ReorderBoardColumnItemDto {
  /** Column id */
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;

  /** New position: a non-negative integer, unique in the request (normalized to 0..n-1 by order) */
  @IsInt({ message: 'position must be an integer' })
  @Min(0, { message: 'position must not be negative' })
  position: number;
}

export class ReorderBoardColumnsDto {
  /** Every column of the project exactly once, each with its new position */
  @IsArray({ message: 'columns must be an array of { id, position }' })
  @IsObject({ each: true, message: 'columns must be an array of { id, position }' }) // ValidateNested alone walks into nested arrays
  @ValidateNested({ each: true })
  @Type(() => ReorderBoardColumnItemDto)
  columns: ReorderBoardColumnItemDto[];
}
