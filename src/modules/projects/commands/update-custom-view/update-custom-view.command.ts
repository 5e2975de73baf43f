import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CustomViewEnvelope } from '../../projects.response';
import type { UpdateCustomViewDto } from './update-custom-view.dto';

export class UpdateCustomViewCommand extends Command<CustomViewEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly viewId: string,
    readonly dto: UpdateCustomViewDto,
  ) {
    super();
  }
}
