import { PartialType } from '@nestjs/swagger';
import { CreateGoalDto } from '../create-goal/create-goal.dto';

/** Only the given fields change; null clears an optional one. */
export class UpdateGoalDto extends PartialType(CreateGoalDto) {}
