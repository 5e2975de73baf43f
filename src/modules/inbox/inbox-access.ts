import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';

/**
 * Who may use the inbox API: only members whose id is in INBOX_OPERATOR_MEMBER_IDS (fails closed:
 * none when unset). Other members of the organization get 403; callers outside it never get here
 * (the organization scope answers 404), and a message of another organization is 404.
 */
@Injectable()
export class InboxAccess {
  private readonly operators: ReadonlySet<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.operators = new Set(config.inbox.operatorMemberIds);
  }

  assertOperator(actor: Actor): void {
    if (!this.operators.has(actor.memberId.toLowerCase())) throw Errors.forbidden('Only inbox operators can use the inbox');
  }
}
