import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** Chat providers a member can link (`chat_member_links.provider`). */
export type ChatProvider = 'google_chat';

/** Statements of members' chat provider links (`chat_member_links`). */
@Injectable()
export class ChatLinksRepository {
  constructor(private readonly sql: Sql) {}

  /** Removes member `memberId`'s link to `provider`; false when there was none. */
  async unlink(orgId: string, memberId: string, provider: ChatProvider, m?: Tx): Promise<boolean> {
    return (await this.sql.run('DELETE FROM chat_member_links WHERE org_id = $1 AND member_id = $2 AND provider = $3', [orgId, memberId, provider], m)) > 0;
  }
}
