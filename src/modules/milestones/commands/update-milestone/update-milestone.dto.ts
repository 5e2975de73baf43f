import { PartialType } from '@nestjs/swagger';
import { CreateMilestoneDto } from '../create-milestone/create-milestone.dto';

/** Only the given fields change. Values are checked by milestoneInput (one readable 400 per problem). */
export class UpdateMilestoneDto extends PartialType(CreateMilestoneDto) {}
