import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { hashSessionToken } from '../../../../common/auth/tokens';
import { LogoutCommand } from './logout.command';

/** Deletes the server-side session: the old cookie stops working everywhere at once. */
@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand, void> {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: LogoutCommand): Promise<void> {
    if (!cmd.token) return;
    await this.db.query('DELETE FROM sessions WHERE token_hash = $1', [hashSessionToken(this.config.sessionSecret, cmd.token)]);
  }
}
