import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { SessionsRepository, UsersRepository } from './accounts.repository';
import { LoginHandler } from './commands/login/login.handler';
import { LogoutHandler } from './commands/logout/logout.handler';
import { SignupHandler } from './commands/signup/signup.handler';
import { GetAuthContextHandler } from './queries/get-auth-context/get-auth-context.handler';
import { CredentialLimits } from './credential-limits.service';
import { SessionService } from './session.service';

/** Accounts and sessions of humans; the auth context of every caller. */
@Module({
  controllers: [AccountsController],
  providers: [CredentialLimits, UsersRepository, SessionsRepository, SessionService, SignupHandler, LoginHandler, LogoutHandler, GetAuthContextHandler],
  exports: [UsersRepository, SessionsRepository],
})
export class AccountsModule {}
