import { ApiHideProperty, PickType } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { CreateProjectDto } from '../create-project/create-project.dto';
import { Present, Rejected, Trim } from '../../projects.validation';

/** Description, color and icon keep their create rules (null clears them); name and status may be omitted but not nulled. */
export class UpdateProjectDto extends PickType(CreateProjectDto, ['description', 'color', 'icon'] as const) {
  /** New name (1..200 characters); the slug stays as it is */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200)
  name?: string;

  /** `active` or `archived`; reactivating counts against the plan's active projects */
  @Present()
  @IsIn(['active', 'archived'], { message: 'status must be active or archived' })
  status?: 'active' | 'archived';

  /** Not changeable: issue identifiers are built from it */
  @ApiHideProperty()
  @Rejected('key cannot be changed after the project is created')
  key?: unknown;

  /** Not changeable */
  @ApiHideProperty()
  @Rejected('slug cannot be changed')
  slug?: unknown;
}
