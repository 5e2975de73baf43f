import { PartialType } from '@nestjs/swagger';
import { CreateTargetDto } from '../create-target/create-target.dto';

/** Only the fields sent change; null clears. Changing the scope also needs edit on every project of the initiative. */
export class UpdateTargetDto extends PartialType(CreateTargetDto) {}
