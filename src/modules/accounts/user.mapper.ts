import type { UserEntity } from './entities/user.entity';
import type { UserResponse } from './accounts.response';

export const toUserResponse = (u: UserEntity): UserResponse => ({
  id: u.id,
  email: u.email,
  display_name: u.displayName,
  created_at: u.createdAt.toISOString(),
});
