import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../common/errors/domain-error';
import { UserEntity } from '../../entities/user.entity';
import { verifyPassword } from '../../password';
import { SessionService } from '../../session.service';
import { LoginCommand } from './login.command';

@CommandHandler(LoginCommand)
export class LoginHandler implements ICommandHandler<LoginCommand, { user: UserEntity; token: string }> {
  constructor(
    private readonly db: DataSource,
    private readonly sessions: SessionService,
  ) {}

  async execute(cmd: LoginCommand): Promise<{ user: UserEntity; token: string }> {
    const user = await this.db.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email: cmd.email }).getOne();
    // Same work and same answer whether the account is missing or the password is wrong.
    if (!(await verifyPassword(user?.passwordHash ?? null, cmd.password)) || !user) {
      throw new DomainError(401, 'unauthorized', 'Invalid email or password');
    }
    const token = await this.sessions.create(this.db.manager, user.id);
    return { user, token };
  }
}
