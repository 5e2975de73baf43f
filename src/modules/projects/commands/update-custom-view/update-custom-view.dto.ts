import { OmitType } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { DISPLAY_MODES } from '../../custom-view.rules';
import { Present, Trim } from '../../projects.validation';
import { CreateCustomViewDto } from '../create-custom-view/create-custom-view.dto';
import { Alias } from '../../../../common/http/aliases';

/** The create fields (filters, sort, color, icon keep their rules); name and display mode may be omitted but not nulled. */
export class UpdateCustomViewDto extends OmitType(CreateCustomViewDto, ['name', 'display_mode'] as const) {
  /** New name (1..100 characters) */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name?: string;

  /** `list`, `board` or `table` */
  @Present()
  @IsIn(DISPLAY_MODES, { message: 'display_mode must be list, board or table' })
  @Alias('displayMode')
  display_mode?: 'list' | 'board' | 'table';
}
