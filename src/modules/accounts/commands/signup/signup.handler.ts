import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { UsersRepository } from '../../accounts.repository';
import type { UserEntity } from '../../entities/user.entity';
import { hashPassword } from '../../password';
import { SessionService } from '../../session.service';
import { SignupCommand } from './signup.command';
import { TxRunner } from '../../../../database/tx-runner';

@CommandHandler(SignupCommand)
export class SignupHandler implements ICommandHandler<SignupCommand, { user: UserEntity; token: string }> {
  constructor(
    private readonly tx: TxRunner,
    private readonly sessions: SessionService,
    private readonly users: UsersRepository,
  ) {}

  async execute(cmd: SignupCommand): Promise<{ user: UserEntity; token: string }> {
    const passwordHash = await hashPassword(cmd.password);
    return this.tx.run(async (m) => {
      if (await this.users.emailTaken(cmd.email, m)) throw Errors.conflict('An account with this email already exists', 'email_taken');
      const user: UserEntity = { id: randomUUID(), email: cmd.email, passwordHash, displayName: cmd.displayName, createdAt: new Date(), updatedAt: new Date() };
      await this.users.insert(user, m);
      const token = await this.sessions.create(user.id, m);
      return { user, token };
    });
  }
}
