import { PartialType } from '@nestjs/swagger';
import { CreateKpiDto } from '../create-kpi/create-kpi.dto';

/** Only the given fields change; null clears an optional one. */
export class UpdateKpiDto extends PartialType(CreateKpiDto) {}
