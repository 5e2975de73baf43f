import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { UserEntity } from './entities/user.entity';

/** The columns of a user account, as `UserEntity`. */
const USER_COLUMNS = `id, email, password_hash AS "passwordHash", display_name AS "displayName", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** User accounts (humans: email, password hash, display name). */
@Injectable()
export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  /** Whether an account uses this email (case-insensitive). */
  async emailTaken(email: string, m?: Tx): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email], m)).length > 0;
  }

  /** The account with this email (case-insensitive), or undefined. */
  findByEmail(email: string, m?: Tx): Promise<UserEntity | undefined> {
    return this.sql.row<UserEntity>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email], m);
  }

  /** Id and display name of the account with this email (case-insensitive), or undefined. */
  findIdentityByEmail(email: string, m?: Tx): Promise<{ id: string; display_name: string } | undefined> {
    return this.sql.row<{ id: string; display_name: string }>('SELECT id, display_name FROM users WHERE lower(email) = lower($1)', [email], m);
  }

  /** Stores a new account. */
  async insert(user: UserEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO users (id, email, password_hash, display_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [user.id, user.email, user.passwordHash, user.displayName, user.createdAt, user.updatedAt],
      m,
    );
  }
}

/** Server-side web sessions (only the token's HMAC is stored). */
@Injectable()
export class SessionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Stores a new session of user `userId`. */
  async insert(session: { id: string; tokenHash: Buffer; userId: string; expiresAt: Date }, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO sessions (id, token_hash, user_id, expires_at) VALUES ($1, $2, $3, $4)',
      [session.id, session.tokenHash, session.userId, session.expiresAt],
      m,
    );
  }

  /** Deletes the session with this token hash (logout). */
  async deleteByTokenHash(tokenHash: Buffer, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE token_hash = $1', [tokenHash], m);
  }

  /** Deletes at most `limit` expired sessions; answers how many. */
  purgeExpiredBatch(limit: number, m?: Tx): Promise<number> {
    return this.sql.run(`DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= now() LIMIT $1)`, [limit], m);
  }
}
