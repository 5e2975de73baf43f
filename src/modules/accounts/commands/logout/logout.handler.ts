import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { hashSessionToken } from '../../../../common/auth/tokens';
import { SessionsRepository } from '../../accounts.repository';
import { LogoutCommand } from './logout.command';

/** Deletes the server-side session: the old cookie stops working everywhere at once. */
@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand, void> {
  constructor(
    private readonly sessions: SessionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: LogoutCommand): Promise<void> {
    if (!cmd.token) return;
    await this.sessions.deleteByTokenHash(hashSessionToken(this.config.sessionSecret, cmd.token));
  }
}
