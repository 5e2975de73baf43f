import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CustomViewEnvelope } from '../../projects.response';
import type { CreateCustomViewDto } from './create-custom-view.dto';

export class CreateCustomViewCommand extends Command<CustomViewEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: CreateCustomViewDto,
  ) {
    super();
  }
}
