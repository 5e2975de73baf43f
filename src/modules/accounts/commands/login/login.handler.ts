import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { UsersRepository } from '../../accounts.repository';
import type { UserEntity } from '../../entities/user.entity';
import { verifyPassword } from '../../password';
import { SessionService } from '../../session.service';
import { LoginCommand } from './login.command';

@CommandHandler(LoginCommand)
export class LoginHandler implements ICommandHandler<LoginCommand, { user: UserEntity; token: string }> {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionService,
  ) {}

  async execute(cmd: LoginCommand): Promise<{ user: UserEntity; token: string }> {
    const user = await this.users.findByEmail(cmd.email);
    // Same work and same answer whether the account is missing or the password is wrong.
    if (!(await verifyPassword(user?.passwordHash ?? null, cmd.password)) || !user) {
      throw new DomainError(401, 'unauthorized', 'Invalid email or password');
    }
    const token = await this.sessions.create(user.id);
    return { user, token };
  }
}
