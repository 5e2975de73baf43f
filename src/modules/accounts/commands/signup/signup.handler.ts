import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { UserEntity } from '../../entities/user.entity';
import { hashPassword } from '../../password';
import { SessionService } from '../../session.service';
import { SignupCommand } from './signup.command';

@CommandHandler(SignupCommand)
export class SignupHandler implements ICommandHandler<SignupCommand, { user: UserEntity; token: string }> {
  constructor(
    private readonly db: DataSource,
    private readonly sessions: SessionService,
  ) {}

  async execute(cmd: SignupCommand): Promise<{ user: UserEntity; token: string }> {
    const passwordHash = await hashPassword(cmd.password);
    return this.db.transaction(async (m) => {
      const taken: unknown[] = await m.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [cmd.email]);
      if (taken.length) throw Errors.conflict('An account with this email already exists', 'email_taken');
      const user = m.create(UserEntity, { id: randomUUID(), email: cmd.email, passwordHash, displayName: cmd.displayName, createdAt: new Date(), updatedAt: new Date() });
      await m.insert(UserEntity, user);
      const token = await this.sessions.create(m, user.id);
      return { user, token };
    });
  }
}
